-- COPY ... ON_ERROR ignore (PostgreSQL 17 and later) skips a row whose
-- ID is bad text and loads the rest.
CREATE TABLE copied (id ksuid PRIMARY KEY, oid objectid);
COPY copied FROM STDIN WITH (ON_ERROR ignore);
0qjBBlJIfbVLKwnJn4xpLGDr00e	507f1f77bcf86cd799439011
aWgEPTl1tmebfsQzFP4bxwgy80W	507f1f77bcf86cd799439012
000000000000000000000000001	507f1f77bcf86cd79943901z
000000000000000000000000002	507f1f77bcf86cd799439013
\.
SELECT * FROM copied ORDER BY id;
