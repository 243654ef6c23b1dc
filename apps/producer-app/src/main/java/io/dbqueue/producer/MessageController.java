package io.dbqueue.producer;

import io.dbqueue.common.CommitOutcomeUnknownException;
import io.dbqueue.problems.Problems;
import io.dbqueue.queue.CoalescingProducer;
import io.dbqueue.queue.IdempotencyKeyReusedException;
import io.dbqueue.queue.QueueProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * {@code POST /} takes one message and answers once the batch it joined is committed;
 * {@code POST /batch} takes an array, validates all of it, and writes it in one statement. With an
 * {@code Idempotency-Key} header a request is stored at most once: sent again (after a timeout, a
 * lost answer, a crash of this service) it stores nothing and answers with the first request's ids
 * and {@code Idempotent-Replayed: true}. The key is stored with a fingerprint of the request, and
 * the key sent with another request is refused with 422, storing nothing. A keyed single message is
 * written on its own, not batched. A write whose commit was sent but not answered (the connection
 * lost while committing) is answered 503 saying that it may have been stored, never "not stored".
 */
@RestController
public class MessageController {

    private static final Logger LOG = LoggerFactory.getLogger(MessageController.class);
    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";
    /** Leaves room for the position suffix within the library's key limit. */
    static final int MAX_KEY_LENGTH = 200;

    private final MessageParser parser;
    private final CoalescingProducer coalescing;
    private final QueueProducer producer;
    private final ProducerProperties properties;
    private final ObjectMapper json;

    public MessageController(MessageParser parser, CoalescingProducer coalescing, QueueProducer producer,
                             ProducerProperties properties, ObjectMapper json) {
        this.parser = parser;
        this.coalescing = coalescing;
        this.producer = producer;
        this.properties = properties;
        this.json = json;
    }

    /**
     * Blocks its request thread until the message's batch has committed: an asynchronous answer would
     * dispatch every request through the servlet stack twice, which cost more CPU per message than the
     * enqueue (docs/stack-performance.md). Both mappings produce JSON only, so that a client that
     * accepts no JSON is refused (406) before anything is stored, not after.
     */
    @PostMapping(value = "/", consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<?> enqueue(InputStream body, @RequestHeader HttpHeaders headers) throws IOException {
        String key = idempotencyKey(headers);
        String payload = parser.payload(parser.message(read(body)));
        if (key != null) {
            return stored(key, () -> {
                QueueProducer.Enqueued enqueued = producer.enqueueOnce(storedKey(key, 0),
                        RequestFingerprint.of("POST / " + payload), payload);
                return answer(Map.of("id", enqueued.id()), !enqueued.stored());
            });
        }
        return stored(null, () -> ResponseEntity.ok(Map.of("id", coalescing.enqueue(payload))));
    }

    @PostMapping(value = "/batch", consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<?> enqueueBatch(InputStream body, @RequestHeader HttpHeaders headers) throws IOException {
        String key = idempotencyKey(headers);
        List<String> payloads = parser.batch(read(body)).stream().map(parser::payload).toList();
        if (key == null) {
            return stored(null, () -> ResponseEntity.ok(Map.of("ids", producer.enqueueAll(payloads))));
        }
        // The request's key names its messages by position: the same request sent again repeats them all.
        List<String> keys = IntStream.range(0, payloads.size()).mapToObj(i -> storedKey(key, i)).toList();
        // Each message's key carries the whole request's fingerprint: any other request under the key is refused whole.
        List<String> fingerprints = Collections.nCopies(payloads.size(),
                RequestFingerprint.of("POST /batch " + json.writeValueAsString(payloads)));
        return stored(key, () -> {
            List<QueueProducer.Enqueued> enqueued = producer.enqueueAllOnce(keys, fingerprints, payloads, Duration.ZERO);
            return answer(Map.of("ids", enqueued.stream().map(QueueProducer.Enqueued::id).toList()),
                    enqueued.stream().noneMatch(QueueProducer.Enqueued::stored));
        });
    }

    /**
     * The queue key of message {@code index} of a request with the client's {@code key}: one namespace for both
     * endpoints, so that a key used on one is refused on the other (the fingerprints name the endpoint). The index
     * after the last '#' keeps two client keys apart: "K#1" with index 0 is "K#1#0", never "K" with index 1.
     */
    private static String storedKey(String key, int index) {
        return "http:" + key + "#" + index;
    }

    private static ResponseEntity<?> answer(Object body, boolean replayed) {
        ResponseEntity.BodyBuilder ok = ResponseEntity.ok();
        if (replayed) {
            ok.header(IDEMPOTENT_REPLAYED, "true");
        }
        return ok.body(body);
    }

    /**
     * Runs a write of a request with {@code key} (null: none); a database that cannot take it makes a
     * 503, never a 2xx for something not stored, and a 503 that says "not stored" only when it is sure.
     */
    private static ResponseEntity<?> stored(String key, Supplier<ResponseEntity<?>> write) {
        try {
            return write.get();
        } catch (IdempotencyKeyReusedException e) {
            return Problems.answer(HttpStatus.UNPROCESSABLE_CONTENT, "header " + IDEMPOTENCY_KEY + " '" + key
                    + "' was already used for a different request body; nothing stored. Send a new request with a new key");
        } catch (CommitOutcomeUnknownException e) {
            LOG.warn("message outcome unknown: {}", e.toString());
            return Problems.answer(HttpStatus.SERVICE_UNAVAILABLE, "message outcome unknown: its write was cut off"
                    + " (the database connection lost while committing, or the request stopped while its batch was"
                    + " written), so it may or may not have been stored. Retry with the same " + IDEMPOTENCY_KEY
                    + (key == null ? " (this request had none: without one, a retry may store it twice)" : " '" + key + "'"));
        } catch (RuntimeException e) {
            return unavailable(e);
        }
    }

    /**
     * The request's {@code Idempotency-Key}, checked, or null without one. Given twice it is refused, not joined: the
     * servlet API would join the values with a comma, into a key a single header could also send.
     */
    private static String idempotencyKey(HttpHeaders headers) {
        List<String> values = headers.getOrEmpty(IDEMPOTENCY_KEY);
        if (values.isEmpty()) {
            return null;
        }
        String rule = "header " + IDEMPOTENCY_KEY + " must be 1 to " + MAX_KEY_LENGTH + " visible ASCII characters";
        if (values.size() > 1) {
            throw new InvalidMessageException("header " + IDEMPOTENCY_KEY + " was sent " + values.size()
                    + " times; send one key");
        }
        String key = values.get(0);
        if (key.isEmpty()) {
            throw new InvalidMessageException(rule + ", was empty");
        }
        for (int i = 0; i < key.length(); i++) { // not echoed: a non-ASCII byte arrives here mis-decoded
            char c = key.charAt(i);
            if (c < 0x21 || c > 0x7E) {
                throw new InvalidMessageException(rule + "; character " + (i + 1) + " is "
                        + (c > 0x7E ? "not ASCII" : c == ' ' ? "a space" : "a control character"));
            }
        }
        if (key.length() > MAX_KEY_LENGTH) {
            throw new InvalidMessageException(rule + ", was " + key.length() + " characters starting with '"
                    + key.substring(0, 20) + "'");
        }
        return key;
    }

    private byte[] read(InputStream body) throws IOException {
        byte[] bytes = body.readNBytes(properties.maxBodyBytes() + 1);
        if (bytes.length > properties.maxBodyBytes()) {
            throw new InvalidMessageException("request body exceeds " + properties.maxBodyBytes() + " bytes");
        }
        return bytes;
    }

    @ExceptionHandler(InvalidMessageException.class)
    ResponseEntity<ProblemDetail> badRequest(InvalidMessageException e) {
        return Problems.answer(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    /** The database's own message stays in the log: it names tables and the server's state, not the client's fault. */
    private static ResponseEntity<ProblemDetail> unavailable(RuntimeException error) {
        LOG.warn("message not stored: {}", error.toString());
        return Problems.answer(HttpStatus.SERVICE_UNAVAILABLE, "message not stored: the database could not take it now;"
                + " retry later");
    }
}
