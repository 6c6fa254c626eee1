//! DeleteGroups (Kafka: `GroupCoordinatorShard.deleteGroups`, `ClassicGroup.validateDeleteGroup`,
//! `OffsetMetadataManager.deleteAllOffsets`, `createGroupTombstoneRecords`).
//!
//! Per group: the partition checks first (`NOT_COORDINATOR`, `COORDINATOR_LOAD_IN_PROGRESS`, ...),
//! then an unknown or Dead group is `GROUP_ID_NOT_FOUND` and a group with members (any state but
//! Empty) is `NON_EMPTY_GROUP`. An Empty group is deleted: a tombstone for each committed offset,
//! then a tombstone for the group, in `__consumer_offsets`; the group goes Dead and leaves memory.
//! The tombstones are fire-and-forget here (the response does not wait for the high watermark).

use crate::protocol::{
    DeletableGroupResult, DeleteGroupsRequest, DeleteGroupsResponse, ErrorCode, GroupState,
};

use super::event::Reason;
use super::records::RecordBody;
use super::Coordinator;

impl Coordinator {
    pub(crate) fn delete_groups(&mut self, req: &DeleteGroupsRequest) -> DeleteGroupsResponse {
        DeleteGroupsResponse {
            results: req
                .group_ids
                .iter()
                .map(|id| DeletableGroupResult {
                    group_id: id.clone(),
                    error_code: self.delete_group(id),
                })
                .collect(),
        }
    }

    fn delete_group(&mut self, group_id: &str) -> ErrorCode {
        if let Some(e) = self.partition_error(group_id) {
            return e;
        }
        let Some(g) = self.groups.get_mut(group_id) else {
            return ErrorCode::GroupIdNotFound;
        };
        match g.state {
            GroupState::Dead => return ErrorCode::GroupIdNotFound,
            GroupState::Empty => {}
            _ => return ErrorCode::NonEmptyGroup,
        }
        let partition = g.partition;
        for tp in std::mem::take(&mut g.offsets).into_keys() {
            let _ = self.io.append(
                partition,
                RecordBody::OffsetTombstone {
                    group_id: group_id.to_owned(),
                    topic_partition: tp,
                },
            );
        }
        let _ = self.io.append(
            partition,
            RecordBody::GroupTombstone {
                group_id: group_id.to_owned(),
            },
        );
        g.transition(&mut self.io, GroupState::Dead, Reason::GroupDeleted);
        self.remove_group(group_id);
        ErrorCode::None
    }
}
