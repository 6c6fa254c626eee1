//! ListGroups (Kafka: `GroupCoordinatorService.listGroups`, `GroupMetadataManager.listGroups`).
//!
//! The admin client sends ListGroups to every broker; each coordinator answers with the groups of
//! the `__consumer_offsets` partitions it leads. A Dead group is gone (deleted or unloaded) and is
//! not listed. The states filter compares Kafka's state names case-insensitively.

use crate::protocol::{ErrorCode, GroupState, ListGroupsRequest, ListGroupsResponse, ListedGroup};

use super::{Coordinator, PartitionStatus};

impl Coordinator {
    pub(crate) fn list_groups(&self, req: &ListGroupsRequest) -> ListGroupsResponse {
        let error = |e: ErrorCode| ListGroupsResponse {
            error_code: e,
            groups: Vec::new(),
        };
        if !self.active {
            return error(ErrorCode::CoordinatorNotAvailable);
        }
        if self
            .io
            .logs
            .values()
            .any(|l| l.status == PartitionStatus::Loading)
        {
            // A shard still loading fails the whole read (the admin client retries).
            return error(ErrorCode::CoordinatorLoadInProgress);
        }
        let wanted = |s: GroupState| {
            req.states_filter.is_empty() || req.states_filter.iter().any(|f| f.eq_ignore_ascii_case(s.name()))
        };
        ListGroupsResponse {
            error_code: ErrorCode::None,
            groups: self
                .groups
                .values()
                .filter(|g| !g.is(GroupState::Dead) && self.io.logs.contains_key(&g.partition))
                .filter(|g| wanted(g.state))
                .map(|g| ListedGroup {
                    group_id: g.id.clone(),
                    protocol_type: g.protocol_type.clone().unwrap_or_default(),
                    group_state: g.state,
                })
                .collect(),
        }
    }
}
