-- The tables of the sqlc test, made by the test after `sortid sql`.
CREATE TABLE accounts (
	id   ksuid PRIMARY KEY DEFAULT ksuid_generate(),
	name text NOT NULL
);

CREATE TABLE orders (
	id         ksuid PRIMARY KEY DEFAULT ksuid_generate(),
	account_id ksuid NOT NULL REFERENCES accounts (id),
	session    objectid NOT NULL,
	parent     ksuid REFERENCES orders (id),
	total      bigint NOT NULL
);
