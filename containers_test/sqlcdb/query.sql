-- name: CreateAccount :one
-- The key comes from the column default, ksuid_generate().
INSERT INTO accounts (name) VALUES ($1) RETURNING id;

-- name: CreateOrder :exec
INSERT INTO orders (id, account_id, session, parent, total)
VALUES ($1, $2, $3, $4, $5);

-- name: GetOrder :one
SELECT * FROM orders WHERE id = $1;

-- name: OrdersByIDs :many
SELECT * FROM orders WHERE id = ANY(@ids::ksuid[]) ORDER BY id;

-- name: OrdersAfter :many
-- Keyset pagination: the page after the key last seen.
SELECT * FROM orders WHERE id > @after ORDER BY id LIMIT @page_size;

-- name: OrdersBefore :many
-- Newest first: the page before the key last seen.
SELECT * FROM orders WHERE id < @before ORDER BY id DESC LIMIT @page_size;

-- name: OrdersBetween :many
-- A time window: ksuid.MinAt(from) and ksuid.MaxAt(to).
SELECT * FROM orders WHERE id BETWEEN @from_id AND @to_id ORDER BY id;

-- name: AccountIDs :many
SELECT id FROM accounts ORDER BY id;
