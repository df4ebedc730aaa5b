-- sortid check: one read-only query over the catalog that returns, as one
-- JSON array, each column of every user table that holds or may hold IDs:
-- sortid's types and domains, uuid, and text, varchar, char and bytea
-- columns (also under a domain), with a sample of up to 20 of their
-- values (bytea as hex) to tell IDs from other text, how the column's
-- collation sorts, the foreign keys that refer to it, whether it is the
-- table's partition key, the functions whose bodies name it, and whether
-- a zero ID is stored (looked up only where an index leads with the
-- column). In a Citus database it also reads the column each distributed
-- table is distributed by. The samples and Citus's catalog are read with
-- query_to_xml, so the query runs where Citus is not, and needs only
-- USAGE on the schemas and SELECT on the tables; a column it may not read
-- has no sample and is reported as such. A sample is the values as
-- query_to_xml prints them, not cast to text: Citus 14 fails a query of a
-- domain column cast to text ("attribute 1 of type record has wrong
-- type"). Views and materialized views are read as tables are: a view's
-- text column takes the database's collation even where the column it
-- shows is sortid's type. Tables of extensions and partitions (their
-- parent is checked) are left out.
WITH cols AS (
	SELECT n.nspname, c.relname, c.oid AS relid, c.relkind, a.attname, a.attnum, a.attgenerated,
		format_type(a.atttypid, a.atttypmod) AS typ,
		t.typname,
		coalesce(bt.typname, t.typname) AS basetype,
		CASE WHEN co.collname = 'default' THEN (SELECT format('default (%s)', coalesce(to_jsonb(d) ->> 'datlocale', to_jsonb(d) ->> 'daticulocale', d.datcollate))
				FROM pg_database d WHERE d.datname = current_database())
			ELSE coalesce(co.collname, '') END AS collname,
		coalesce(co.collname IN ('C', 'POSIX', 'ucs_basic', 'pg_c_utf8')
			OR co.collname = 'default' AND (SELECT datlocprovider = 'b' OR datlocprovider = 'c' AND datcollate IN ('C', 'POSIX')
				FROM pg_database WHERE datname = current_database()), false) AS bytewise,
		has_column_privilege(c.oid, a.attnum, 'SELECT') AS readable
	FROM pg_attribute a
		JOIN pg_class c ON c.oid = a.attrelid
		JOIN pg_namespace n ON n.oid = c.relnamespace
		JOIN pg_type t ON t.oid = a.atttypid
		LEFT JOIN pg_type bt ON bt.oid = t.typbasetype AND t.typtype = 'd'
		LEFT JOIN pg_collation co ON co.oid = a.attcollation
	WHERE c.relkind IN ('r', 'p', 'v', 'm') AND NOT c.relispartition
		AND a.attnum > 0 AND NOT a.attisdropped
		AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE E'pg\\_%'
		AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
		AND (coalesce(bt.typname, t.typname) IN ('text', 'varchar', 'bpchar', 'bytea', 'uuid')
			OR t.typname IN ('ksuid', 'objectid'))
)
SELECT coalesce(json_agg(json_build_object(
	'schema', nspname, 'table', relname, 'column', attname, 'type', typ,
	'typname', typname, 'base', basetype, 'collation', collname, 'bytewise', bytewise,
	'readable', readable, 'relkind', relkind,
	'generated', CASE WHEN attgenerated <> '' THEN pg_get_expr(
		(SELECT ad.adbin FROM pg_attrdef ad WHERE ad.adrelid = relid AND ad.adnum = attnum), relid) END,
	'sample', CASE WHEN readable THEN (xpath('/table/row/v/text()', query_to_xml(format(
			'SELECT %s AS v FROM %I.%I WHERE %I IS NOT NULL LIMIT 20',
			CASE WHEN basetype = 'bytea' THEN format('encode(%I, ''hex'')', attname)
				WHEN basetype = 'bpchar' THEN format('%I::text', attname)
				ELSE format('%I', attname) END,
			nspname, relname, attname), false, false, '')))::text[] END,
	'distribution', CASE WHEN to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL THEN (xpath('/table/row/v/text()', query_to_xml(format(
			'SELECT partmethod AS v FROM pg_catalog.pg_dist_partition WHERE logicalrelid = %s::oid::regclass AND partkey IS NOT NULL AND pg_catalog.column_to_column_name(logicalrelid, partkey) = %L',
			relid, attname), false, false, '')))[1]::text END,
	'partition_key', EXISTS (SELECT 1 FROM pg_partitioned_table p WHERE p.partrelid = relid AND attnum = ANY (p.partattrs::int2[])),
	'partition_strategy', (SELECT p.partstrat FROM pg_partitioned_table p WHERE p.partrelid = relid),
	'referenced_by', (SELECT json_agg(format('%s on %s', con.conname, con.conrelid::regclass) ORDER BY con.conname)
		FROM pg_constraint con WHERE con.contype = 'f' AND con.confrelid = relid AND attnum = ANY (con.confkey)),
	'references', (SELECT json_agg(format('%s to %s', con.conname, con.confrelid::regclass) ORDER BY con.conname)
		FROM pg_constraint con WHERE con.contype = 'f' AND con.conrelid = relid AND attnum = ANY (con.conkey)),
	'functions', (SELECT json_agg(DISTINCT p.oid::regprocedure::text)
		FROM pg_proc p JOIN pg_namespace pn ON pn.oid = p.pronamespace
		WHERE pn.nspname <> 'information_schema' AND pn.nspname NOT LIKE E'pg\\_%'
			AND p.prolang NOT IN (SELECT oid FROM pg_language WHERE lanname IN ('c', 'internal'))
			AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
			AND position(lower(relname) IN lower(p.prosrc)) > 0
			AND p.prosrc ~* (E'\\m' || regexp_replace(attname, E'([^a-zA-Z0-9_])', E'\\\\\\1', 'g') || E'\\M')),
	'zero', CASE WHEN readable AND basetype IN ('text', 'varchar', 'bpchar') AND EXISTS (
			SELECT 1 FROM pg_index i WHERE i.indrelid = relid AND i.indkey[0] = attnum)
		THEN (xpath('/table/row/v/text()', query_to_xml(format(
			'SELECT 1 AS v FROM %I.%I WHERE %I IN (%L, %L) LIMIT 1',
			nspname, relname, attname, '000000000000000000000000000', '000000000000000000000000'), false, false, '')))::text[] IS DISTINCT FROM '{}'
		END
) ORDER BY nspname, relname, attnum), '[]')
FROM cols
