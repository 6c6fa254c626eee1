//! Kafka's client-side partition assignors, as pure functions.
