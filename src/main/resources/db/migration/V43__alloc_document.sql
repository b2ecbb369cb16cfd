-- Issue 12: the allocation as last submitted (whole, unknown fields included) and the node indexes it was given
-- (CreateIndex, AllocModifyIndex, CreateTime), as JSON beside the record. Null for rows written before this column.
ALTER TABLE alloc ADD COLUMN doc_json CLOB;
