-- sortid: converts a database from the domains of `sortid sql` to the
-- sortid extension's types, in place and in one transaction: all of it,
-- or after an error nothing. Run it where the extension's files are
-- installed on the server (make install in extension/), as a role that may
-- CREATE EXTENSION (a superuser: the extension is written in C):
--
--   sortid sql to-extension | psql -v ON_ERROR_STOP=1 "$DATABASE_URL"
--
-- Before it changes anything it looks at every object that uses the
-- domains, the install's functions or a column of the domains, and stops,
-- naming each one, where it could not carry one over: a view, rule,
-- policy, trigger, CHECK, generated column, expression or partial index,
-- publication column list or function that uses them; a function whose
-- body is a string (PL/pgSQL, say) and names a converted table, the
-- domains, or (a trigger's) its table's ID column, since what it does with
-- the ID can change meaning (id::bytea is the text's bytes on the domains,
-- the raw bytes on the types); a table in an INHERITS tree with an ID
-- column; a table partitioned BY HASH on one (the types hash otherwise);
-- for a table partitioned by an ID column (made anew, see 4), also a
-- comment on it, its columns, constraints or indexes, column privilege,
-- row security, publication, statistics object, identity, storage,
-- compression or statistics target. Drop such an object, convert, and
-- create it again. It touches only the install's own functions, found by their
-- exact signatures: a function of yours named ksuid_... stays as it is.
-- It also stops if the domains' schema is not on the search path, where
-- the extension's operators, unlike text's, would not be found.
--
-- What it does then:
--   1. renames the domains ksuid and objectid and the install's functions
--      (ksuid_generate, ksuid_to_text, ...) to sortid_old_<name>;
--   2. creates the extension in the domains' schema;
--   3. drops the foreign keys that involve a column of the domains;
--   4. converts every column of the domains (and arrays of them) to the
--      types, one ALTER TABLE per table (a partitioned table's columns
--      with its partitions'): each such table is rewritten and its
--      indexes rebuilt, under an ACCESS EXCLUSIVE lock; indexes,
--      constraints, statistics, privileges, comments, row security and
--      publications stay. A table partitioned by such a column cannot
--      have its key's type changed, so it is made anew (columns, defaults,
--      constraints, indexes, owner and privileges) and its partitions,
--      converted one by one, are attached to it with their bounds;
--   5. puts back the foreign keys and the defaults (a default of
--      ksuid_generate() becomes the extension's ksuid_generate(), with the
--      same text);
--   6. drops the renamed domains and functions.

BEGIN;
SET LOCAL client_min_messages = warning;
DO $sortid$
DECLARE
	schema_name name;
	on_path boolean;
	domains oid[];
	procs oid[];
	sigs text[];
	problems text[];
	citus_tables text[];
	r record;
	fk record;
	part record;
	saved_fks text[] := '{}';
	saved_defaults text[] := '{}';
	alters text[];
	cols text;
	parts text[];
	bounds text[];
	i int;
BEGIN
	PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('sortid install'));
	SELECT min(n.nspname), count(DISTINCT n.nspname) AS schemas INTO r
	FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
	WHERE t.typtype = 'd' AND t.typname IN ('ksuid', 'objectid') AND t.typbasetype = 'pg_catalog.text'::pg_catalog.regtype;
	schema_name := r.min;
	on_path := schema_name = ANY (pg_catalog.current_schemas(false));
	-- The session's settings do not change what is read and written
	-- back: literals as standard strings, and names qualified, from the
	-- catalog's own functions only.
	PERFORM pg_catalog.set_config('standard_conforming_strings', 'on', true);
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog', true);
	IF EXISTS (SELECT FROM pg_extension WHERE extname = 'sortid') THEN
		RAISE EXCEPTION 'sortid: this database has the sortid extension already; nothing to convert';
	END IF;
	IF r.schemas = 0 THEN
		RAISE EXCEPTION 'sortid: this database has no ksuid or objectid domain; install the extension with CREATE EXTENSION sortid';
	ELSIF r.schemas > 1 THEN
		RAISE EXCEPTION 'sortid: the ksuid and objectid domains are in more than one schema; convert by hand (see docs/postgresql.md)';
	ELSIF NOT on_path THEN
		RAISE EXCEPTION 'sortid: the domains are in the schema %, which is not on the search path: the domains compare with text''s operators from anywhere, the extension''s types only with their own, found on the search path; nothing was changed', schema_name
			USING HINT = format('Put %I on the search path of the database (ALTER DATABASE ... SET search_path) and of this session, and run it again.', schema_name);
	END IF;
	domains := ARRAY(SELECT t.oid FROM pg_type t WHERE t.typnamespace = schema_name::regnamespace
			AND t.typtype = 'd' AND t.typname IN ('ksuid', 'objectid')
		UNION ALL SELECT t.typarray FROM pg_type t WHERE t.typnamespace = schema_name::regnamespace
			AND t.typtype = 'd' AND t.typname IN ('ksuid', 'objectid'));
	-- The install's functions, by their exact signatures; a part's only
	-- where its domain is (to_regprocedure fails on a type that is not:
	-- PostgreSQL 15 does).
	sigs := ARRAY['uuidv7_generate()', 'uuidv7_time(uuid)', 'uuidv7_min_at(timestamptz)', 'uuidv7_max_at(timestamptz)',
		'uuidv7_time_encoder(timestamptz)', 'uuidv7_time_decoder(text)'];
	IF to_regtype(format('%I.ksuid', schema_name)) IS NOT NULL THEN
		sigs := sigs || ARRAY['ksuid_generate()', 'ksuid_to_text(%1$I.ksuid)', 'ksuid_from_text(text)', 'ksuid_to_bytea(%1$I.ksuid)',
			'bytea_to_ksuid(bytea)', 'ksuid_time(%1$I.ksuid)', 'ksuid_min_at(timestamptz)', 'ksuid_max_at(timestamptz)',
			'ksuid_time_encoder(timestamptz)', 'ksuid_time_decoder(text)'];
	END IF;
	IF to_regtype(format('%I.objectid', schema_name)) IS NOT NULL THEN
		sigs := sigs || ARRAY['objectid_to_text(%1$I.objectid)', 'objectid_from_text(text)', 'objectid_to_bytea(%1$I.objectid)',
			'bytea_to_objectid(bytea)', 'objectid_time(%1$I.objectid)', 'objectid_min_at(timestamptz)', 'objectid_max_at(timestamptz)',
			'objectid_time_encoder(timestamptz)', 'objectid_time_decoder(text)'];
	END IF;
	procs := ARRAY(SELECT p FROM unnest(sigs) AS sig, LATERAL to_regprocedure(format('%1$I.' || sig, schema_name)) AS p WHERE p IS NOT NULL);

	-- Citus: a distributed table's distribution column cannot change type
	-- ("cannot execute ALTER TABLE command involving partition column"),
	-- and its rows are placed by the type's hash, which the extension's
	-- types compute otherwise than text. Its catalog exists only with
	-- Citus, hence EXECUTE.
	IF EXISTS (SELECT FROM pg_extension WHERE extname = 'citus') THEN
		EXECUTE 'SELECT array_agg(DISTINCT p.logicalrelid::regclass::text) FROM pg_dist_partition p
			WHERE EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = p.logicalrelid
				AND a.atttypid = ANY ($1) AND a.attnum > 0 AND NOT a.attisdropped)' INTO citus_tables USING domains;
		IF citus_tables IS NOT NULL THEN
			RAISE EXCEPTION 'sortid: nothing was converted: these Citus tables have columns of the ksuid or objectid domains, and Citus does not let a distributed table''s distribution column change type, nor place its rows by the new type''s hash: %', array_to_string(citus_tables, ', ')
				USING HINT = 'Make a new table with the extension''s type, distribute it with create_distributed_table(), copy the rows (INSERT ... SELECT id::text::ksuid ...), and swap the names (docs/scale.md).';
		END IF;
	END IF;

	-- 0. What it could not carry over, all of it named at once.
	WITH
	-- The columns to convert.
	converted AS (
		SELECT a.attrelid, a.attnum FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
		WHERE a.atttypid = ANY (domains) AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p', 'f')),
	-- Tables partitioned by one of them, which are made anew.
	rebuilt AS (
		SELECT DISTINCT pt.partrelid AS oid FROM pg_partitioned_table pt JOIN converted v
			ON v.attrelid = pt.partrelid AND v.attnum = ANY (pt.partattrs::int2[])),
	-- Defaults that call ksuid_generate() or uuidv7_generate() and nothing
	-- else, which step 5 points at the extension's.
	generator_defaults AS (
		SELECT d.oid FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
		WHERE a.attgenerated = ''
			AND pg_get_expr(d.adbin, d.adrelid) ~ '^\(?([a-z_0-9"]+\.)?(ksuid|uuidv7)_generate\(\)\)?(::[a-z ]+)?$'),
	uses AS (
		-- Objects that use the domains: only table columns may.
		SELECT d.classid, d.objid, d.objsubid FROM pg_depend d
		WHERE d.refclassid = 'pg_type'::regclass AND d.refobjid = ANY (domains) AND d.deptype = 'n'
			AND NOT (d.classid = 'pg_class'::regclass AND d.objsubid > 0
				AND (SELECT relkind FROM pg_class WHERE oid = d.objid) IN ('r', 'p', 'f'))
			AND NOT (d.classid = 'pg_proc'::regclass AND d.objid = ANY (procs))
		UNION
		-- Objects that use the install's functions: only such defaults.
		SELECT d.classid, d.objid, d.objsubid FROM pg_depend d
		WHERE d.refclassid = 'pg_proc'::regclass AND d.refobjid = ANY (procs) AND d.deptype = 'n'
			AND NOT (d.classid = 'pg_attrdef'::regclass AND d.objid IN (SELECT oid FROM generator_defaults))
			AND NOT (d.classid = 'pg_proc'::regclass AND d.objid = ANY (procs))
		UNION
		-- Objects that use a converted column: only plain indexes, keys,
		-- NOT NULL, the column's own default, and statistics objects,
		-- which ALTER COLUMN ... TYPE rebuilds.
		SELECT d.classid, d.objid, d.objsubid FROM pg_depend d JOIN converted v
			ON d.refclassid = 'pg_class'::regclass AND d.refobjid = v.attrelid AND d.refobjsubid = v.attnum
		WHERE d.deptype IN ('n', 'a')
			AND NOT (d.classid = 'pg_class'::regclass AND EXISTS (SELECT FROM pg_index x
				WHERE x.indexrelid = d.objid AND x.indexprs IS NULL AND x.indpred IS NULL
					AND NOT EXISTS (SELECT FROM pg_constraint k WHERE k.conindid = x.indexrelid AND k.contype = 'x')))
			AND NOT (d.classid = 'pg_constraint'::regclass
				AND (SELECT contype FROM pg_constraint WHERE oid = d.objid) IN ('p', 'u', 'f', 'n'))
			AND NOT (d.classid = 'pg_attrdef'::regclass AND EXISTS (SELECT FROM pg_attrdef ad JOIN pg_attribute a
				ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
				WHERE ad.oid = d.objid AND a.attrelid = v.attrelid AND a.attnum = v.attnum AND a.attgenerated = ''))
			AND NOT (d.classid = 'pg_statistic_ext'::regclass
				AND (SELECT stxexprs IS NULL FROM pg_statistic_ext WHERE oid = d.objid))
			AND NOT (d.classid = 'pg_class'::regclass AND d.objid = v.attrelid) -- the table itself
	)
	SELECT array_agg(DISTINCT pg_describe_object(u.classid, u.objid, u.objsubid)) INTO problems FROM uses u;
	-- Functions whose body is a string (PL/pgSQL, or SQL not written as a
	-- SQL-standard body): PostgreSQL records nothing of what they use, and
	-- what they do with an ID can change meaning: id::bytea is the text's
	-- 27 bytes on the domains and the 20 raw bytes on the types, and a
	-- comparison with a text variable or LIKE no longer resolves. One
	-- that names a table or the column of a converted ID, or the domains,
	-- is named here; a trigger function is read against its table's ID
	-- columns.
	WITH converted AS (
		SELECT a.attrelid, a.attname, c.relname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
		WHERE a.atttypid = ANY (domains) AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p', 'f')),
	bodies AS (
		SELECT p.oid, p.prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
		WHERE p.prosqlbody IS NULL AND p.prolang NOT IN (SELECT oid FROM pg_language WHERE lanname IN ('internal', 'c'))
			AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND NOT p.oid = ANY (procs)
			AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'))
	SELECT problems || array_agg(DISTINCT format('%s (its body names %s, and PostgreSQL cannot tell what it does with the ID)',
			pg_describe_object('pg_proc'::regclass, b.oid, 0), hit.what))
		INTO problems
	FROM bodies b, LATERAL (
		SELECT format('the table %I', v.relname) AS what FROM converted v
			WHERE b.prosrc ~* ('(^|[^a-z0-9_$])' || regexp_replace(v.relname, '([^a-zA-Z0-9_])', '\\\1', 'g') || '($|[^a-z0-9_$])')
		UNION ALL
		SELECT format('the ID column %I of %s', v.attname, tg.tgrelid::regclass) FROM pg_trigger tg JOIN converted v ON v.attrelid = tg.tgrelid
			WHERE tg.tgfoid = b.oid AND NOT tg.tgisinternal
				AND b.prosrc ~* ('(^|[^a-z0-9_$])' || regexp_replace(v.attname, '([^a-zA-Z0-9_])', '\\\1', 'g') || '($|[^a-z0-9_$])')
		UNION ALL
		SELECT 'the domain ' || t.typname FROM pg_type t WHERE t.oid = ANY (domains) AND t.typtype = 'd'
			AND b.prosrc ~* ('(^|[^a-z0-9_$])' || t.typname || '($|[^a-z0-9_$])')
		LIMIT 1) AS hit;
	-- Tables that inherit (INHERITS) a converted column, or partitioned BY
	-- HASH on one: the types hash other than text, so each row would
	-- belong in another partition.
	SELECT problems || array_agg(DISTINCT what) INTO problems FROM (
		SELECT format('table %s (it inherits or is inherited by a table with an ID column, INHERITS: convert the tree by hand)', c.oid::regclass) AS what
		FROM pg_inherits i JOIN pg_class c ON c.oid IN (i.inhrelid, i.inhparent)
		WHERE NOT EXISTS (SELECT FROM pg_class ch WHERE ch.oid = i.inhrelid AND ch.relispartition)
			AND EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = c.oid AND a.atttypid = ANY (domains) AND a.attnum > 0 AND NOT a.attisdropped)
		UNION ALL
		SELECT format('table %s (partitioned BY HASH on an ID column, whose hash the types compute otherwise: every row would belong in another partition)', pt.partrelid::regclass)
		FROM pg_partitioned_table pt
		WHERE pt.partstrat = 'h' AND EXISTS (SELECT FROM pg_attribute a
			WHERE a.attrelid = pt.partrelid AND a.attnum = ANY (pt.partattrs::int2[]) AND a.atttypid = ANY (domains))) AS x;
	IF problems IS NOT NULL THEN
		RAISE EXCEPTION 'sortid: nothing was converted: these use the ksuid or objectid domains, their functions or their columns in a way the conversion would not keep: %', array_to_string(problems, '; ')
			USING HINT = 'Drop each (keep its definition), run the conversion, and create it again.';
	END IF;
	-- A table partitioned by an ID column is made anew, which keeps only
	-- its columns, defaults, constraints, indexes, owner and privileges.
	SELECT array_agg(format('%s (%s)', c.oid::regclass, what)) INTO problems
	FROM pg_class c JOIN pg_partitioned_table pt ON pt.partrelid = c.oid,
		LATERAL (VALUES
			(obj_description(c.oid, 'pg_class') IS NOT NULL, 'a comment'),
			(EXISTS (SELECT FROM pg_description WHERE objoid = c.oid AND classoid = 'pg_class'::regclass AND objsubid > 0), 'a column comment'),
			(EXISTS (SELECT FROM pg_attribute WHERE attrelid = c.oid AND attacl IS NOT NULL), 'column privileges'),
			(c.relrowsecurity OR c.relforcerowsecurity, 'row security'),
			(EXISTS (SELECT FROM pg_policy WHERE polrelid = c.oid), 'policies'),
			(EXISTS (SELECT FROM pg_trigger WHERE tgrelid = c.oid AND NOT tgisinternal), 'triggers'),
			(EXISTS (SELECT FROM pg_rewrite WHERE ev_class = c.oid), 'rules'),
			(EXISTS (SELECT FROM pg_publication_rel WHERE prrelid = c.oid), 'a publication'),
			(EXISTS (SELECT FROM pg_statistic_ext WHERE stxrelid = c.oid), 'statistics objects'),
			(EXISTS (SELECT FROM pg_attribute WHERE attrelid = c.oid AND (attidentity <> '' OR attgenerated <> '')), 'identity or generated columns'),
			(c.reloptions IS NOT NULL OR c.relreplident <> 'd', 'storage or replica identity options'),
			(EXISTS (SELECT FROM pg_constraint k JOIN pg_description d ON d.objoid = k.oid AND d.classoid = 'pg_constraint'::regclass
				WHERE k.conrelid = c.oid), 'a comment on a constraint'),
			(EXISTS (SELECT FROM pg_index x JOIN pg_description d ON d.objoid = x.indexrelid AND d.classoid = 'pg_class'::regclass
				WHERE x.indrelid = c.oid), 'a comment on an index'),
			(EXISTS (SELECT FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
				AND (coalesce(a.attstattarget::int, -1) >= 0 OR a.attstorage <> t.typstorage OR a.attcompression <> '')),
				'a column''s statistics target, storage or compression'),
			(EXISTS (SELECT FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhrelid WHERE i.inhparent = c.oid AND p.relkind = 'p'), 'partitions partitioned themselves'),
			(c.relispartition, 'it is a partition itself')) AS x(found, what)
	WHERE x.found AND EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum = ANY (pt.partattrs::int2[]) AND a.atttypid = ANY (domains));
	IF problems IS NOT NULL THEN
		RAISE EXCEPTION 'sortid: nothing was converted: a table partitioned by an ID column is made anew, and these would be lost: %', array_to_string(problems, '; ')
			USING HINT = 'Remove each (keep its definition), run the conversion, and put it back; or convert the table by hand (docs/postgresql.md).';
	END IF;

	-- 1. The domains and the install's functions step aside.
	FOR r IN SELECT t.typname FROM pg_type t WHERE t.oid = ANY (domains) AND t.typtype = 'd' LOOP
		EXECUTE format('ALTER DOMAIN %I.%I RENAME TO %I', schema_name, r.typname, 'sortid_old_' || r.typname);
	END LOOP;
	FOR r IN SELECT p.oid::regprocedure AS proc, p.proname FROM pg_proc p WHERE p.oid = ANY (procs) LOOP
		EXECUTE format('ALTER FUNCTION %s RENAME TO %I', r.proc, 'sortid_old_' || r.proname);
	END LOOP;

	-- 2. The extension, in the same schema.
	EXECUTE format('CREATE EXTENSION sortid SCHEMA %I', schema_name);

	-- 3. Foreign keys on either side of a converted column (each once: a
	-- partitioned table's partitions have clones of its own).
	FOR fk IN SELECT c.oid, c.conrelid::regclass AS tbl, c.conname, pg_get_constraintdef(c.oid) AS def
		FROM pg_constraint c
		WHERE c.contype = 'f' AND c.conparentid = 0 AND EXISTS (
			SELECT FROM pg_attribute a WHERE a.atttypid = ANY (domains) AND (
				a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey) OR a.attrelid = c.confrelid AND a.attnum = ANY (c.confkey))) LOOP
		saved_fks := saved_fks || format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.tbl, fk.conname, fk.def);
		EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.tbl, fk.conname);
	END LOOP;

	-- The defaults that call the install's generators, to point at the
	-- extension's in 5; their columns' are dropped in 4.
	FOR r IN SELECT format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', c.oid::regclass, a.attname,
			replace(pg_get_expr(d.adbin, d.adrelid), 'sortid_old_', '')) AS stmt,
			format('ALTER TABLE %s ALTER COLUMN %I DROP DEFAULT', c.oid::regclass, a.attname) AS drop_stmt
		FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
			JOIN pg_class c ON c.oid = d.adrelid
		WHERE EXISTS (SELECT FROM pg_depend x WHERE x.classid = 'pg_attrdef'::regclass AND x.objid = d.oid
			AND x.refclassid = 'pg_proc'::regclass AND x.refobjid = ANY (procs)) LOOP
		saved_defaults := saved_defaults || r.stmt;
		EXECUTE r.drop_stmt;
	END LOOP;

	-- 4a. Tables partitioned by a column of the domains: a new parent.
	FOR r IN SELECT c.oid, c.oid::regclass AS tbl, c.relname, n.nspname, pg_get_partkeydef(c.oid) AS keydef,
			pg_get_userbyid(c.relowner) AS owner, c.relacl
		FROM pg_partitioned_table pt JOIN pg_class c ON c.oid = pt.partrelid JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE NOT c.relispartition AND EXISTS (SELECT FROM pg_attribute a
			WHERE a.attrelid = c.oid AND a.attnum = ANY (pt.partattrs::int2[]) AND a.atttypid = ANY (domains)) LOOP
		-- What the new parent needs, read before the old one goes.
		SELECT string_agg(format('%I %s%s%s', a.attname,
				CASE WHEN a.atttypid = ANY (domains) THEN format('%I.%s', schema_name, replace(format_type(a.atttypid, NULL), schema_name || '.sortid_old_', ''))
					ELSE format_type(a.atttypid, a.atttypmod) END,
				CASE WHEN a.attcollation <> 0 AND a.attcollation <> t.typcollation AND NOT a.atttypid = ANY (domains)
					THEN format(' COLLATE %s', a.attcollation::regcollation) ELSE '' END,
				CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END), ', ' ORDER BY a.attnum)
			INTO cols
		FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
		WHERE a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped;
		alters := '{}';
		FOR part IN SELECT format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', r.tbl, a.attname, pg_get_expr(d.adbin, d.adrelid)) AS stmt
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
		-- and attached in 5; its bounds are the IDs' text, which the types
		-- read.
		FOR i IN 1 .. coalesce(array_length(parts, 1), 0) LOOP
			saved_fks := format('ALTER TABLE %I.%I ATTACH PARTITION %s %s', r.nspname, r.relname, parts[i], bounds[i]) || saved_fks;
		END LOOP;
	END LOOP;

	-- 4b. Every other table's columns of the domains, one ALTER TABLE per
	-- table; a partitioned table's partitions are converted with it.
	FOR r IN SELECT c.oid::regclass AS tbl,
			string_agg(format('ALTER COLUMN %1$I TYPE %2$I.%3$s USING %1$I::text%4$s::%2$I.%3$s', a.attname, schema_name,
				replace(format_type(a.atttypid, NULL), schema_name || '.sortid_old_', ''),
				CASE WHEN t.typcategory = 'A' THEN '[]' ELSE '' END), ', ') AS alter_columns
		FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_type t ON t.oid = a.atttypid
		WHERE a.atttypid = ANY (domains) AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p', 'f')
			AND NOT c.relispartition AND NOT EXISTS (SELECT FROM pg_inherits i WHERE i.inhrelid = c.oid)
		GROUP BY c.oid LOOP
		EXECUTE format('ALTER TABLE %s %s', r.tbl, r.alter_columns);
	END LOOP;

	-- 5. Defaults, partitions and foreign keys back.
	FOR i IN 1 .. coalesce(array_length(saved_defaults, 1), 0) LOOP
		EXECUTE saved_defaults[i];
	END LOOP;
	FOR i IN 1 .. coalesce(array_length(saved_fks, 1), 0) LOOP
		EXECUTE saved_fks[i];
	END LOOP;

	-- 6. The old domains and functions go: nothing uses them now. The
	-- functions go in one statement, as some call others.
	IF procs <> '{}' THEN
		EXECUTE 'DROP FUNCTION ' || (SELECT string_agg(p::regprocedure::text, ', ') FROM unnest(procs) AS p);
	END IF;
	EXECUTE format('DROP DOMAIN IF EXISTS %I.sortid_old_ksuid, %I.sortid_old_objectid', schema_name, schema_name);
END $sortid$;
COMMIT;
