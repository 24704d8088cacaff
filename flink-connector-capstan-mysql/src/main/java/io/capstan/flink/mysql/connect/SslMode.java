package io.capstan.flink.mysql.connect;

import org.apache.flink.annotation.PublicEvolving;

/** TLS use for both the JDBC and the binlog connection. */
@PublicEvolving
public enum SslMode {
    /** Plain TCP; caching_sha2_password then uses RSA key exchange with the server's public key. */
    DISABLED,
    /** TLS when the server offers it, plain otherwise (the default). */
    PREFERRED,
    /** TLS or fail; the server certificate is not verified. */
    REQUIRED,
    /** TLS with the server certificate verified against the trust store. */
    VERIFY_CA,
    /** As VERIFY_CA and the host name must match the certificate. */
    VERIFY_IDENTITY
}
