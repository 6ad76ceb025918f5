//! Cluster in SQLite and PostgreSQL: the SQL store's part for this domain.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::store::{LeaseStore, TableOwner};
use crate::store::base::{StoreError, StoreFuture, StoreResult};
use crate::store::sql::{Backend, SqlStore};

pub(crate) fn owner_row(row: &AnyRow) -> StoreResult<TableOwner> {
    Ok(TableOwner {
        table: row.try_get("table_id")?,
        node: row.try_get("node_id")?,
        incarnation: row.try_get("incarnation")?,
        previous: row.try_get("previous")?,
    })
}

impl LeaseStore for SqlStore {
    fn cluster_id<'a>(&'a self, fresh: &'a str) -> StoreFuture<'a, String> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO cluster_settings (name, value) VALUES ('id', $1) \
                 ON CONFLICT (name) DO NOTHING",
            )
            .bind(fresh)
            .execute(&self.pool)
            .await?;
            let id: String =
                sqlx::query_scalar("SELECT value FROM cluster_settings WHERE name = 'id'")
                    .fetch_one(&self.pool)
                    .await?;
            Ok(id)
        })
    }

    fn renew_node<'a>(&'a self, node: &'a str, boot: u64, ttl_ms: i64) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            // A new run of the node is alive from now; the same run keeps its time.
            let sql = format!(
                "INSERT INTO cluster_nodes (node_id, alive_until, boot, since) \
                 VALUES ($1, {now} + $2, $3, {now}) \
                 ON CONFLICT (node_id) DO UPDATE SET alive_until = excluded.alive_until, \
                 since = CASE WHEN cluster_nodes.boot = excluded.boot \
                 THEN cluster_nodes.since ELSE excluded.since END, \
                 boot = excluded.boot",
                now = self.backend.now_ms()
            );
            sqlx::query(&sql)
                .bind(node)
                .bind(ttl_ms)
                .bind(boot as i64)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn end_node<'a>(&'a self, node: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query("UPDATE cluster_nodes SET alive_until = 0 WHERE node_id = $1")
                .bind(node)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn live_nodes(&self) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT node_id FROM cluster_nodes WHERE alive_until > {now} \
                 ORDER BY since, node_id",
                now = self.backend.now_ms()
            );
            let rows = sqlx::query(&sql).fetch_all(&self.pool).await?;
            rows.iter()
                .map(|r| r.try_get("node_id").map_err(StoreError::from))
                .collect()
        })
    }

    fn claim_table<'a>(&'a self, table: &'a str, node: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let done = sqlx::query(
                "INSERT INTO table_owners (table_id, node_id, incarnation) VALUES ($1, $2, 1) \
                 ON CONFLICT (table_id) DO NOTHING",
            )
            .bind(table)
            .bind(node)
            .execute(&self.pool)
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    fn release_table<'a>(&'a self, table: &'a str, node: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query("DELETE FROM table_owners WHERE table_id = $1 AND node_id = $2")
                .bind(table)
                .bind(node)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn table_owner<'a>(&'a self, table: &'a str) -> StoreFuture<'a, Option<TableOwner>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT table_id, node_id, incarnation, node_id AS previous FROM table_owners \
                 WHERE table_id = $1",
            )
            .bind(table)
            .fetch_optional(&self.pool)
            .await?;
            row.as_ref().map(owner_row).transpose()
        })
    }

    fn tables_of<'a>(&'a self, node: &'a str) -> StoreFuture<'a, Vec<TableOwner>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT table_id, node_id, incarnation, node_id AS previous FROM table_owners \
                 WHERE node_id = $1 ORDER BY table_id",
            )
            .bind(node)
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(owner_row).collect()
        })
    }

    fn take_over<'a>(
        &'a self,
        node: &'a str,
        own: bool,
        limit: u32,
    ) -> StoreFuture<'a, Vec<TableOwner>> {
        Box::pin(async move {
            // Rows another node is taking over at this moment are skipped, not waited
            // for (PostgreSQL); SQLite has one writer at a time anyway.
            let lock = match self.backend {
                Backend::Postgres => " FOR UPDATE SKIP LOCKED",
                Backend::Sqlite => "",
            };
            // One transaction: the rows are chosen (and, on PostgreSQL, locked), then
            // given to `node`.
            let mut tx = self.pool.begin_with(self.backend.begin()).await?;
            let sql = format!(
                "SELECT o.table_id, o.node_id, o.incarnation FROM table_owners o \
                 WHERE (o.node_id <> $1 AND NOT EXISTS ( \
                          SELECT 1 FROM cluster_nodes n \
                          WHERE n.node_id = o.node_id AND n.alive_until >= {now})) \
                    OR (o.node_id = $1 AND $2 = 1) \
                 ORDER BY o.table_id LIMIT $3{lock}",
                now = self.backend.now_ms()
            );
            let rows = sqlx::query(&sql)
                .bind(node)
                .bind(i64::from(own))
                .bind(i64::from(limit))
                .fetch_all(&mut *tx)
                .await?;
            let mut owners = Vec::with_capacity(rows.len());
            for row in &rows {
                let before = TableOwner {
                    table: row.try_get("table_id")?,
                    node: row.try_get("node_id")?,
                    incarnation: row.try_get("incarnation")?,
                    previous: String::new(),
                };
                owners.push(TableOwner {
                    node: node.to_owned(),
                    incarnation: before.incarnation + 1,
                    previous: before.node,
                    table: before.table,
                });
            }
            // Each row changes hands only if it is still as it was read (the same
            // incarnation): a row another node took meanwhile stays that node's.
            let mut taken = std::collections::HashSet::new();
            for chunk in owners.chunks(250) {
                let places = (0..chunk.len())
                    .map(|i| {
                        let (t, n) = (2 * i + 2, 2 * i + 3);
                        format!("(CAST(${t} AS TEXT), CAST(${n} AS BIGINT))")
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                let sql = format!(
                    "UPDATE table_owners SET node_id = $1, incarnation = incarnation + 1 \
                     WHERE (table_id, incarnation) IN (VALUES {places}) RETURNING table_id"
                );
                let mut query = sqlx::query(&sql).bind(node);
                for owner in chunk {
                    query = query.bind(owner.table.as_str()).bind(owner.incarnation - 1);
                }
                for row in query.fetch_all(&mut *tx).await? {
                    taken.insert(row.try_get::<String, _>("table_id")?);
                }
            }
            tx.commit().await?;
            owners.retain(|o| taken.contains(&o.table));
            Ok(owners)
        })
    }
}
