module github.com/sortid/sortid/bsoncodec

go 1.26.0

require (
	github.com/sortid/sortid v0.0.0
	go.mongodb.org/mongo-driver/v2 v2.10.0
)

require (
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/xdg-go/scram v1.4.0 // indirect
	github.com/xdg-go/stringprep v1.0.4 // indirect
	github.com/youmark/pkcs8 v0.0.0-20240726163527-a2c0da244d78 // indirect
	golang.org/x/crypto v0.54.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

// Development across the repository's modules: the core at this commit.
// A consumer's build ignores this line and uses the release required
// above (CONTRIBUTING.md, "Releases").
replace github.com/sortid/sortid => ../
