module github.com/sortid/sortid/gormplugin

go 1.26.0

require (
	github.com/sortid/sortid v0.0.0
	gorm.io/gorm v1.31.2
)

require (
	github.com/jinzhu/inflection v1.0.0 // indirect
	github.com/jinzhu/now v1.1.5 // indirect
	golang.org/x/text v0.43.0 // indirect
)

// Development across the repository's modules: the core at this commit.
// A consumer's build ignores this line and uses the release required
// above (CONTRIBUTING.md, "Releases").
replace github.com/sortid/sortid => ../
