// pq's version, as `pq --version` prints it; `pq lint`'s result cache keys on it.

/// pq's version text (`pq 0.1.0`).
package enum PQVersion {
    package static let text = "pq 0.1.0"
}
