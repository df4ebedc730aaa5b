-- Soft input errors (PostgreSQL 16 and later): bad text is reported, not
-- raised, where the caller asks for it.

SELECT pg_input_is_valid('0qjBBlJIfbVLKwnJn4xpLGDr00e', 'ksuid') AS good_ksuid,
	pg_input_is_valid('aWgEPTl1tmebfsQzFP4bxwgy80W', 'ksuid') AS above_max,
	pg_input_is_valid('x', 'ksuid') AS short,
	pg_input_is_valid('\x05f5e1000102030405060708090a0b0c0d0e0f10', 'ksuid') AS hex_form;
SELECT * FROM pg_input_error_info('0qjBBlJIfbVLKwnJn4xpLGDr0-e', 'ksuid');
SELECT * FROM pg_input_error_info('aWgEPTl1tmebfsQzFP4bxwgy80W', 'ksuid');
SELECT * FROM pg_input_error_info('x', 'ksuid');
SELECT pg_input_is_valid('507f1f77bcf86cd799439011', 'objectid') AS good_objectid,
	pg_input_is_valid('507f1f77bcf86cd79943901z', 'objectid') AS bad_objectid;
SELECT * FROM pg_input_error_info('507f1f77bcf86cd79943901z', 'objectid');
