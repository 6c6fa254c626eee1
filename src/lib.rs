//! The Kafka rebalance playground: the Yew app that Trunk builds.
