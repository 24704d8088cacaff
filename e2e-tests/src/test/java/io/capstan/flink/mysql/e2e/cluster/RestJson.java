package io.capstan.flink.mysql.e2e.cluster;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * JSON over HTTP against one base URL (Flink's REST API, the SQL Gateway's), with Flink's shaded
 * Jackson.
 */
final class RestJson {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private final String baseUrl;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    RestJson(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    String baseUrl() {
        return baseUrl;
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    JsonNode get(String path) {
        return send(request(path).GET().build());
    }

    JsonNode post(String path, JsonNode body) {
        return send(
                request(path)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                        .build());
    }

    JsonNode patch(String path) {
        return send(request(path).method("PATCH", HttpRequest.BodyPublishers.noBody()).build());
    }

    JsonNode delete(String path) {
        return send(request(path).DELETE().build());
    }

    /** A multipart/form-data POST of one file field, as Flink's /jars/upload expects. */
    JsonNode postFile(
            String path, String field, String fileName, byte[] content, String contentType) {
        String boundary = "capstan-e2e-" + System.nanoTime();
        byte[] head =
                ("--"
                                + boundary
                                + "\r\n"
                                + "Content-Disposition: form-data; name=\""
                                + field
                                + "\"; filename=\""
                                + fileName
                                + "\"\r\n"
                                + "Content-Type: "
                                + contentType
                                + "\r\n\r\n")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] tail =
                ("\r\n--" + boundary + "--\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] body = new byte[head.length + content.length + tail.length];
        System.arraycopy(head, 0, body, 0, head.length);
        System.arraycopy(content, 0, body, head.length, content.length);
        System.arraycopy(tail, 0, body, head.length + content.length, tail.length);
        return send(
                request(path)
                        .timeout(Duration.ofMinutes(2))
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(60));
    }

    private JsonNode send(HttpRequest request) {
        try {
            HttpResponse<String> response =
                    http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new RestException(
                        request.method()
                                + " "
                                + request.uri()
                                + " answered "
                                + response.statusCode()
                                + ": "
                                + response.body(),
                        response.statusCode());
            }
            String body = response.body();
            return body.isBlank() ? MAPPER.createObjectNode() : MAPPER.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted calling " + request.uri(), e);
        }
    }

    /** A non-2xx answer. */
    static final class RestException extends RuntimeException {
        private final int status;

        RestException(String message, int status) {
            super(message);
            this.status = status;
        }

        int status() {
            return status;
        }
    }
}
