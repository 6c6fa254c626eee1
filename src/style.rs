//! How things look: each Kafka API's shape and colour class, and each consumer's colour.
//!
//! Colour is never the only signal: every API also has its own shape (and its name in the legend
//! and in the token's accessible name), and every consumer colour comes with the consumer's name.

use rebalance_engine::protocol::Api;

/// The Kafka APIs the stage draws, in legend order.
pub const APIS: [Api; 8] = [
    Api::FindCoordinator,
    Api::JoinGroup,
    Api::SyncGroup,
    Api::Heartbeat,
    Api::ConsumerGroupHeartbeat,
    Api::LeaveGroup,
    Api::OffsetCommit,
    Api::OffsetFetch,
];

/// The CSS class suffix of an API (`api-join`, ...).
pub fn api_class(api: Api) -> &'static str {
    match api {
        Api::FindCoordinator => "api-find",
        Api::JoinGroup => "api-join",
        Api::SyncGroup => "api-sync",
        Api::Heartbeat => "api-heartbeat",
        Api::LeaveGroup => "api-leave",
        Api::OffsetCommit => "api-commit",
        Api::OffsetFetch => "api-fetch",
        Api::DescribeGroups | Api::ListGroups | Api::DeleteGroups => "api-other",
        // The consumer protocol's one request: its own colour, not the classic heartbeat's.
        Api::ConsumerGroupHeartbeat => "api-cg-heartbeat",
        Api::ConsumerGroupDescribe => "api-other",
    }
}

/// The token's outline, centred on (0, 0), about 20 units across.
pub fn api_shape(api: Api) -> &'static str {
    match api {
        // diamond
        Api::FindCoordinator => "M0,-10 L10,0 L0,10 L-10,0 Z",
        // circle
        Api::JoinGroup => "M-9,0 A9,9 0 1,0 9,0 A9,9 0 1,0 -9,0 Z",
        // square
        Api::SyncGroup => "M-8,-8 H8 V8 H-8 Z",
        // small triangle, pointing up
        Api::Heartbeat => "M0,-8 L7,6 L-7,6 Z",
        // hexagon
        Api::LeaveGroup => "M-9,0 L-4.5,-8 L4.5,-8 L9,0 L4.5,8 L-4.5,8 Z",
        // five-pointed star
        Api::OffsetCommit => {
            "M0,-10 L2.9,-3.1 L9.5,-3.1 L4.3,1.4 L6.2,8.1 L0,4.2 L-6.2,8.1 L-4.3,1.4 L-9.5,-3.1 L-2.9,-3.1 Z"
        }
        // triangle pointing down
        Api::OffsetFetch => "M0,8 L8,-6 L-8,-6 Z",
        // plus
        Api::DescribeGroups | Api::ListGroups | Api::DeleteGroups => {
            "M-3,-9 H3 V-3 H9 V3 H3 V9 H-3 V3 H-9 V-3 H-3 Z"
        }
        // a heartbeat's triangle with a bar under it
        Api::ConsumerGroupHeartbeat => "M0,-9 L7,3 L-7,3 Z M-7,5 H7 V8 H-7 Z",
        // the plus of DescribeGroups, rotated
        Api::ConsumerGroupDescribe => "M-6.4,-2.1 L-2.1,-6.4 L0,-4.2 L2.1,-6.4 L6.4,-2.1 L4.2,0 L6.4,2.1 L2.1,6.4 L0,4.2 L-2.1,6.4 L-6.4,2.1 L-4.2,0 Z",
    }
}

/// How many distinct consumer colours there are before they repeat.
pub const CONSUMER_COLOURS: usize = 10;

/// The CSS class of the `i`-th consumer's colour.
pub fn consumer_class(i: usize) -> String {
    format!("owner-{}", i % CONSUMER_COLOURS)
}

/// A string usable in an element id (and in `aria-labelledby`, a list of ids split at spaces)
/// for any name: its UTF-8 bytes in hex.
pub fn id_of(name: &str) -> String {
    name.bytes().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_api_has_its_own_shape_and_class() {
        for (i, a) in APIS.iter().enumerate() {
            for b in &APIS[i + 1..] {
                assert_ne!(api_shape(*a), api_shape(*b), "{a} and {b} look alike");
                assert_ne!(api_class(*a), api_class(*b));
            }
        }
    }
}
