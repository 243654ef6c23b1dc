package io.dbqueue.bench;

import com.networknt.schema.InputFormat;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/** results.schema.json, for the tests that check what the lab writes against it. */
public final class ResultsSchema {

    private ResultsSchema() {
    }

    /**
     * What in the JSON file {@code json} does not match results.schema.json. The validator reads the file itself
     * (it is built on Jackson 2, the lab on Jackson 3).
     */
    public static Set<ValidationMessage> errors(Path json) throws Exception {
        try (InputStream in = ResultsSchema.class.getResourceAsStream("/results.schema.json")) {
            JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in);
            return schema.validate(Files.readString(json), InputFormat.JSON);
        }
    }
}
