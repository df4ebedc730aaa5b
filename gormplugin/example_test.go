package gormplugin_test

import (
	"gorm.io/gorm"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/ksuid"
)

// Install the plugin once; AutoMigrate then gives ID columns an
// order-keeping type, and Create fills zero keys. (A version of this that
// runs, on SQLite, is in drivertests/gormsqlite.)
func Example() {
	type Post struct {
		ID    ksuid.KSUID
		Title string
	}
	var db *gorm.DB // from gorm.Open(postgres.Open(dsn), &gorm.Config{}), or any dialector
	if err := db.Use(gormplugin.New()); err != nil {
		panic(err)
	}
	if err := db.AutoMigrate(&Post{}); err != nil {
		panic(err)
	}
	post := Post{Title: "first"}
	db.Create(&post) // post.ID now holds a new KSUID
}
