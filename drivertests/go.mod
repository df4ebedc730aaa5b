module github.com/sortid/sortid/drivertests

go 1.26.0

// Tests that need a driver or a browser the library does not: gormplugin
// on SQLite (cgo), the sortid command's page in headless Chromium, and
// the migration tables against segmentio/ksuid and mongo-driver.
// They live in a module of their own so that the library's go.mod lists
// only what its packages import.
replace github.com/sortid/sortid => ../

require (
	github.com/chromedp/cdproto v0.160.3
	github.com/chromedp/chromedp v0.23.1
	github.com/google/uuid v1.6.0
	github.com/segmentio/ksuid v1.0.4
	github.com/sortid/sortid v0.0.0
	github.com/sortid/sortid/gormplugin v0.0.0-00010101000000-000000000000
	go.mongodb.org/mongo-driver/v2 v2.10.0
	golang.org/x/mod v0.41.0
	gorm.io/driver/sqlite v1.6.0
	gorm.io/gorm v1.31.2
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/jinzhu/inflection v1.0.0 // indirect
	github.com/jinzhu/now v1.1.5 // indirect
	github.com/mattn/go-sqlite3 v1.14.22 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace github.com/sortid/sortid/gormplugin => ../gormplugin
