//! FindCoordinator (Kafka: `KafkaApis.getCoordinator`).

use crate::protocol::{ErrorCode, FindCoordinatorRequest, FindCoordinatorResponse, NodeId};

use super::Coordinator;

impl Coordinator {
    /// The coordinator of a group is the leader of its `__consumer_offsets` partition. This broker
    /// answers with itself for the partitions it leads, with what [`Coordinator::set_partition_leader`]
    /// told it for the others, and `COORDINATOR_NOT_AVAILABLE` when the partition has no known leader.
    pub(crate) fn find_coordinator(&self, req: &FindCoordinatorRequest) -> FindCoordinatorResponse {
        let partition = self.partition_for(&req.key);
        let leader = if self.active && self.io.logs.contains_key(&partition) {
            Some(self.node_id())
        } else {
            self.partition_leaders.get(&partition).copied()
        };
        match leader {
            Some(node_id) => FindCoordinatorResponse {
                error_code: ErrorCode::None,
                node_id,
                partition,
            },
            None => FindCoordinatorResponse {
                error_code: ErrorCode::CoordinatorNotAvailable,
                node_id: NodeId(-1),
                partition,
            },
        }
    }
}
