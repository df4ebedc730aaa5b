-- sortid: converts a database from the domains of `sortid sql` to the
-- sortid extension's types, in place and in one transaction: all of it,
-- or after an error nothing. Run it where the extension's files are
-- installed on the server (make install in extension/), as a role that may
-- CREATE EXTENSION (a superuser: the extension is written in C):
--
--   sortid sql to-extension | psql -v ON_ERROR_STOP=1 "$DATABASE_URL"
--
-- What it does:
--   1. renames the domains ksuid and objectid and the script's functions
--      (ksuid_generate, ksuid_to_text, ...) to sortid_old_<name>;
--   2. creates the extension in the domains' schema;
--   3. drops the foreign keys that involve a column of the domains;
--   4. converts every column of the domains (and arrays of them) to the
--      types, one ALTER TABLE per table: each such table is rewritten and
--      its indexes rebuilt, under an ACCESS EXCLUSIVE lock. A table
--      partitioned by such a column cannot have its key's type changed, so
--      it is made anew (columns, defaults, constraints, indexes, owner and
--      privileges) and its partitions, converted one by one, are attached
--      to it with their bounds;
--   5. puts back the foreign keys and the columns' defaults (a default of
--      ksuid_generate() becomes the extension's ksuid_generate());
--   6. drops the renamed domains, operators and functions.
-- A view, rule or other object that still uses a converted column or an
-- old function makes it stop, naming it: drop the view, convert, create it
-- again. Triggers and row-level security policies of a partitioned table
-- are not copied to its new parent: the script refuses such a table.

BEGIN;
SET LOCAL client_min_messages = warning;
DO $sortid$
DECLARE
	schema_name name;
	r record;
	fk record;
	part record;
	saved_fks text[] := '{}';
	saved_defaults text[] := '{}';
	alters text[];
	cols text;
	parts text[];
	bounds text[];
	old_types oid[];
	new_type text;
	new_array text;
	i int;
BEGIN
	PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('sortid install'));
	-- The session's settings do not change what is read and written
	-- back: bounds print as \x hex (which the types read), literals
	-- as standard strings, and names qualified, from the catalog's own
	-- functions only.
	PERFORM pg_catalog.set_config('bytea_output', 'hex', true);
	PERFORM pg_catalog.set_config('standard_conforming_strings', 'on', true);
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog', true);
	IF EXISTS (SELECT FROM pg_extension WHERE extname = 'sortid') THEN
		RAISE EXCEPTION 'sortid: this database has the sortid extension already; nothing to convert';
	END IF;
	SELECT min(n.nspname), count(DISTINCT n.nspname) AS schemas INTO r
	FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
	WHERE t.typtype = 'd' AND t.typname IN ('ksuid', 'objectid') AND t.typbasetype = 'bytea'::regtype;
	IF r.schemas = 0 THEN
		RAISE EXCEPTION 'sortid: this database has no ksuid or objectid domain; install the extension with CREATE EXTENSION sortid';
	ELSIF r.schemas > 1 THEN
		RAISE EXCEPTION 'sortid: the ksuid and objectid domains are in more than one schema; convert by hand (see docs/postgresql.md)';
	END IF;
	schema_name := r.min;

	-- 1. The domains and functions of `sortid sql` step aside.
	FOR r IN SELECT t.typname FROM pg_type t
		WHERE t.typnamespace = schema_name::regnamespace AND t.typtype = 'd' AND t.typname IN ('ksuid', 'objectid') LOOP
		EXECUTE format('ALTER DOMAIN %I.%I RENAME TO %I', schema_name, r.typname, 'sortid_old_' || r.typname);
	END LOOP;
	FOR r IN SELECT p.oid::regprocedure AS proc, p.proname FROM pg_proc p
		WHERE p.pronamespace = schema_name::regnamespace AND p.proname ~ '^(ksuid|objectid|uuidv7)_'
			AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e') LOOP
		EXECUTE format('ALTER FUNCTION %s RENAME TO %I', r.proc, 'sortid_old_' || r.proname);
	END LOOP;
	SELECT array_agg(t.oid) INTO old_types FROM pg_type t
	WHERE t.typnamespace = schema_name::regnamespace AND t.typname IN ('sortid_old_ksuid', 'sortid_old_objectid');
	SELECT old_types || array_agg(t.typarray) INTO old_types FROM pg_type t WHERE t.oid = ANY (old_types);

	-- 2. The extension, in the same schema.
	EXECUTE format('CREATE EXTENSION sortid SCHEMA %I', schema_name);

	-- 3. Foreign keys on either side of a converted column (each once: a
	-- partitioned table's partitions have clones of its own).
	FOR fk IN SELECT c.oid, c.conrelid::regclass AS tbl, c.conname, pg_get_constraintdef(c.oid) AS def
		FROM pg_constraint c
		WHERE c.contype = 'f' AND c.conparentid = 0 AND EXISTS (
			SELECT FROM pg_attribute a WHERE a.atttypid = ANY (old_types) AND (
				a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey) OR a.attrelid = c.confrelid AND a.attnum = ANY (c.confkey))) LOOP
		saved_fks := saved_fks || format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.tbl, fk.conname, fk.def);
		EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.tbl, fk.conname);
	END LOOP;

	-- 4a. Tables partitioned by a column of the domains: a new parent.
	FOR r IN SELECT c.oid, c.oid::regclass AS tbl, c.relname, n.nspname, pg_get_partkeydef(c.oid) AS keydef,
			pg_get_userbyid(c.relowner) AS owner, c.relacl
		FROM pg_partitioned_table pt JOIN pg_class c ON c.oid = pt.partrelid JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE NOT c.relispartition AND EXISTS (SELECT FROM pg_attribute a
			WHERE a.attrelid = c.oid AND a.attnum = ANY (pt.partattrs::int2[]) AND a.atttypid = ANY (old_types)) LOOP
		IF EXISTS (SELECT FROM pg_trigger WHERE tgrelid = r.oid AND NOT tgisinternal) OR EXISTS (SELECT FROM pg_policy WHERE polrelid = r.oid) THEN
			RAISE EXCEPTION 'sortid: % has triggers or row-level security policies, which this script does not copy to its new parent; convert it by hand (see docs/postgresql.md)', r.tbl;
		END IF;
		IF EXISTS (SELECT FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhrelid WHERE i.inhparent = r.oid AND p.relkind = 'p') THEN
			RAISE EXCEPTION 'sortid: % has partitions that are partitioned themselves; convert it by hand (see docs/postgresql.md)', r.tbl;
		END IF;
		-- What the new parent needs, read before the old one goes.
		SELECT string_agg(format('%I %s%s%s', a.attname,
				CASE a.atttypid
					WHEN (SELECT oid FROM pg_type WHERE oid = ANY (old_types) AND typname = 'sortid_old_ksuid') THEN format('%I.ksuid', schema_name)
					WHEN (SELECT oid FROM pg_type WHERE oid = ANY (old_types) AND typname = 'sortid_old_objectid') THEN format('%I.objectid', schema_name)
					WHEN (SELECT typarray FROM pg_type WHERE oid = ANY (old_types) AND typname = 'sortid_old_ksuid') THEN format('%I.ksuid[]', schema_name)
					WHEN (SELECT typarray FROM pg_type WHERE oid = ANY (old_types) AND typname = 'sortid_old_objectid') THEN format('%I.objectid[]', schema_name)
					ELSE format_type(a.atttypid, a.atttypmod) END,
				CASE WHEN a.attcollation <> 0 AND a.attcollation <> t.typcollation
					THEN format(' COLLATE %s', a.attcollation::regcollation) ELSE '' END,
				CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END), ', ' ORDER BY a.attnum)
			INTO cols
		FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
		WHERE a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped;
		alters := '{}';
		FOR part IN SELECT format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', r.tbl, a.attname,
				replace(pg_get_expr(d.adbin, d.adrelid), 'sortid_old_', '')) AS stmt
			FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
			WHERE d.adrelid = r.oid LOOP
			alters := alters || part.stmt;
		END LOOP;
		FOR part IN SELECT format('ALTER TABLE %s ADD CONSTRAINT %I %s', r.tbl, c.conname, pg_get_constraintdef(c.oid)) AS stmt
			FROM pg_constraint c WHERE c.conrelid = r.oid AND c.contype IN ('p', 'u', 'c', 'x', 'f') AND c.conparentid = 0 ORDER BY c.contype DESC LOOP
			alters := alters || part.stmt;
		END LOOP;
		FOR part IN SELECT pg_get_indexdef(i.indexrelid) AS stmt FROM pg_index i
			WHERE i.indrelid = r.oid AND NOT EXISTS (SELECT FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = r.oid) LOOP
			alters := alters || part.stmt;
		END LOOP;
		alters := alters || format('ALTER TABLE %s OWNER TO %I', r.tbl, r.owner);
		FOR part IN SELECT format('GRANT %s ON %s TO %s%s', x.privilege_type, r.tbl,
				CASE WHEN x.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(x.grantee)) END,
				CASE WHEN x.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END) AS stmt
			FROM aclexplode(r.relacl) x WHERE x.grantee <> (SELECT relowner FROM pg_class WHERE oid = r.oid) LOOP
			alters := alters || part.stmt;
		END LOOP;
		SELECT coalesce(array_agg(i.inhrelid::regclass::text ORDER BY i.inhrelid), '{}'),
				coalesce(array_agg(pg_get_expr(p.relpartbound, p.oid) ORDER BY i.inhrelid), '{}')
			INTO parts, bounds
		FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhrelid WHERE i.inhparent = r.oid;
		FOR i IN 1 .. coalesce(array_length(parts, 1), 0) LOOP
			EXECUTE format('ALTER TABLE %s DETACH PARTITION %s', r.tbl, parts[i]);
		END LOOP;
		EXECUTE format('DROP TABLE %s', r.tbl);
		EXECUTE format('CREATE TABLE %I.%I (%s) PARTITION BY %s', r.nspname, r.relname, cols, r.keydef);
		FOR i IN 1 .. coalesce(array_length(alters, 1), 0) LOOP
			EXECUTE alters[i];
		END LOOP;
		-- Each partition, now a table of its own, is converted by 4b below
		-- and attached in 5; its bounds print as \x hex, which the types read.
		FOR i IN 1 .. coalesce(array_length(parts, 1), 0) LOOP
			saved_fks := format('ALTER TABLE %I.%I ATTACH PARTITION %s %s', r.nspname, r.relname, parts[i], bounds[i]) || saved_fks;
		END LOOP;
	END LOOP;

	-- 4b. Every other table's columns of the domains, one ALTER TABLE per
	-- table (partitions are converted with their new parent's columns).
	FOR r IN SELECT c.oid::regclass AS tbl,
			string_agg(format('ALTER COLUMN %I DROP DEFAULT, ALTER COLUMN %I TYPE %s USING %I::bytea%s::%s', a.attname, a.attname,
				CASE WHEN t.typcategory = 'A' THEN format('%I.%s[]', schema_name, substr(et.typname, 12)) ELSE format('%I.%s', schema_name, substr(t.typname, 12)) END,
				a.attname, CASE WHEN t.typcategory = 'A' THEN '[]' ELSE '' END,
				CASE WHEN t.typcategory = 'A' THEN format('%I.%s[]', schema_name, substr(et.typname, 12)) ELSE format('%I.%s', schema_name, substr(t.typname, 12)) END),
				', ') AS alter_columns,
			array_agg(format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', c.oid::regclass, a.attname,
				replace(pg_get_expr(d.adbin, d.adrelid), 'sortid_old_', ''))) FILTER (WHERE d.adbin IS NOT NULL) AS defaults
		FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_type t ON t.oid = a.atttypid
			LEFT JOIN pg_type et ON et.oid = t.typelem AND t.typcategory = 'A'
			LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
		WHERE a.atttypid = ANY (old_types) AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'm', 'f')
		GROUP BY c.oid LOOP
		EXECUTE format('ALTER TABLE %s %s', r.tbl, r.alter_columns);
		saved_defaults := saved_defaults || coalesce(r.defaults, '{}');
	END LOOP;

	-- 5. Defaults, partitions and foreign keys back.
	FOR i IN 1 .. coalesce(array_length(saved_defaults, 1), 0) LOOP
		EXECUTE saved_defaults[i];
	END LOOP;
	FOR i IN 1 .. coalesce(array_length(saved_fks, 1), 0) LOOP
		EXECUTE saved_fks[i];
	END LOOP;

	-- 6. The old domains, their operators and functions go; anything else
	-- that still uses them stops the conversion here, by name.
	FOR r IN SELECT o.oid::regoperator AS op FROM pg_operator o WHERE o.oprleft = ANY (old_types) LOOP
		EXECUTE format('DROP OPERATOR %s', r.op);
	END LOOP;
	FOR r IN SELECT p.oid::regprocedure AS proc FROM pg_proc p
		WHERE p.pronamespace = schema_name::regnamespace AND p.proname ~ '^sortid_old_' LOOP
		EXECUTE format('DROP FUNCTION %s', r.proc);
	END LOOP;
	EXECUTE format('DROP DOMAIN IF EXISTS %I.sortid_old_ksuid, %I.sortid_old_objectid', schema_name, schema_name);
END $sortid$;
COMMIT;
