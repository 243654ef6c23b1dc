package io.dbqueue.producer;

import io.dbqueue.queue.QueueProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * {@code POST /} takes one message and answers once the batch it joined is committed;
 * {@code POST /batch} takes an array, validates all of it, and writes it in one statement.
 */
@RestController
public class MessageController {

    private static final Logger LOG = LoggerFactory.getLogger(MessageController.class);

    private final MessageParser parser;
    private final MessageBatcher batcher;
    private final QueueProducer producer;
    private final ProducerProperties properties;

    public MessageController(MessageParser parser, MessageBatcher batcher, QueueProducer producer,
                             ProducerProperties properties) {
        this.parser = parser;
        this.batcher = batcher;
        this.producer = producer;
        this.properties = properties;
    }

    @PostMapping("/")
    public CompletableFuture<ResponseEntity<?>> enqueue(InputStream body) throws IOException {
        Message message = parser.message(read(body));
        return batcher.submit(parser.payload(message)).handle((id, error) ->
                error == null ? ResponseEntity.ok(Map.of("id", id)) : unavailable(error));
    }

    @PostMapping("/batch")
    public ResponseEntity<?> enqueueBatch(InputStream body) throws IOException {
        List<String> payloads = parser.batch(read(body)).stream().map(parser::payload).toList();
        try {
            return ResponseEntity.ok(Map.of("ids", producer.enqueueAll(payloads)));
        } catch (RuntimeException e) {
            return unavailable(e);
        }
    }

    private byte[] read(InputStream body) throws IOException {
        byte[] bytes = body.readNBytes(properties.maxBodyBytes() + 1);
        if (bytes.length > properties.maxBodyBytes()) {
            throw new InvalidMessageException("request body exceeds " + properties.maxBodyBytes() + " bytes");
        }
        return bytes;
    }

    @ExceptionHandler(InvalidMessageException.class)
    ResponseEntity<ErrorBody> badRequest(InvalidMessageException e) {
        return ResponseEntity.badRequest().body(new ErrorBody(e.getMessage()));
    }

    @ExceptionHandler(ProducerClosedException.class)
    ResponseEntity<ErrorBody> closed(ProducerClosedException e) {
        return unavailable(e);
    }

    private static ResponseEntity<ErrorBody> unavailable(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        LOG.warn("message not stored: {}", cause.toString());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .body(new ErrorBody("message not stored: " + cause.getMessage()));
    }
}
