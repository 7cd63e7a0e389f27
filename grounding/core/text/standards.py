"""Names of standards that carry digits (SPEC §9.26): prose, not values.

``SHA-256``, ``UTF-8``, ``HTTP/2``, ``x86_64`` and ``ISO 8601`` name a hash, an encoding, a protocol, an
architecture and a date format; no tool result need hold them. The list is the default of the
``standard-names`` option: a run extends it (``extend-standard-names``) or replaces it.
"""

from __future__ import annotations

# Hashes and ciphers, encodings, protocol and format versions, architectures and machine types, and numbered
# standards written as two words ("iso 8601"); normalised, as an answer's tokens are.
STANDARD_NAMES = (
    "md4", "md5", "sha1", "sha-1", "sha2", "sha-2", "sha224", "sha-224", "sha256", "sha-256", "sha384", "sha-384",
    "sha512", "sha-512", "sha3", "sha-3", "sha3-256", "sha3-512", "blake2", "blake2b", "blake3", "crc32", "crc-32",
    "aes128", "aes-128", "aes192", "aes-192", "aes256", "aes-256", "3des", "rc4", "ed25519", "x25519", "p-256",
    "p-384", "secp256k1", "rsa-2048", "rsa-4096", "hmac-sha256", "pbkdf2", "argon2", "argon2id",
    "utf-8", "utf8", "utf-16", "utf16", "utf-16le", "utf-16be", "utf-32", "utf32", "ucs-2", "latin-1", "latin1",
    "iso-8859-1", "cp1252", "windows-1252", "base64", "base32", "base58", "base16", "base64url",
    "http/1.0", "http/1.1", "http/2", "http/3", "http2", "http3", "h2", "tls1.2", "tls1.3", "sslv3", "ipv4",
    "ipv6", "oauth1", "oauth2", "oauth2.0", "s3", "ec2", "x509", "x.509", "pkcs7", "pkcs8", "pkcs12", "mp3", "mp4",
    "h264", "h.264", "h265", "h.265", "m3u8", "es5", "es6", "es2015", "es2017", "es2020", "es2022", "es2023",
    "c++11", "c++14", "c++17", "c++20", "c++23", "c99", "c11", "c17", "python3", "py3", "2fa",
    "x86_64", "x86-64", "x64", "x86", "amd64", "arm64", "aarch64", "armv7", "armv8", "i386", "i686", "riscv64",
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64",
    "bfloat16", "fp16", "fp32", "fp64", "bf16", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64",
    "iso 8601", "iso 639", "iso 3166", "iso 4217", "iso 9001", "iso 27001", "rfc 3339", "rfc 822", "rfc 2822",
    "rfc 5322", "rfc 7231", "rfc 9110", "ieee 754",
)  # fmt: skip


def standard_names(names: list[str] | tuple[str, ...], extend: list[str] | tuple[str, ...] = ()) -> frozenset[str]:
    """The names a run reads as prose, normalised as an answer's tokens are (lower case, one space)."""
    return frozenset(" ".join(name.lower().split()) for name in (*names, *extend) if name.strip())
