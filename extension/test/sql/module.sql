-- PostgreSQL 18 and later: the module names itself (PG_MODULE_MAGIC_EXT).
SELECT ksuid_time('000000000000000000000000000') IS NOT NULL AS loaded;
SELECT module_name, version FROM pg_get_loaded_modules() WHERE file_name = 'sortid.so';
