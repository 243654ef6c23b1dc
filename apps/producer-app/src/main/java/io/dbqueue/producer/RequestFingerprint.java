package io.dbqueue.producer;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The fingerprint an {@code Idempotency-Key} is stored with: a SHA-256 of the request's canonical
 * JSON (the stored payloads, so that the same message sent with other spacing or field order is the
 * same request). The key sent again with another fingerprint is a key reused for another request.
 */
final class RequestFingerprint {

    private RequestFingerprint() {
    }

    static String of(String canonicalRequest) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonicalRequest.getBytes(StandardCharsets.UTF_8));
            return "sha-256:" + HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
