module github.com/sortid/sortid/sqltype

go 1.26.0

require (
	github.com/jackc/pgx/v5 v5.12.0
	github.com/sortid/sortid v0.0.0
)

require (
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

// Development across the repository's modules: the core at this commit.
// A consumer's build ignores this line and uses the release required
// above (CONTRIBUTING.md, "Releases").
replace github.com/sortid/sortid => ../
