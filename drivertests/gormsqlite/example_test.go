package gormsqlite

import (
	"fmt"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/ksuid"
)

func Example() {
	type Post struct {
		ID    ksuid.KSUID
		Title string
	}
	db, err := gorm.Open(sqlite.Open("file::memory:"), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		panic(err)
	}
	if err := db.Use(gormplugin.New()); err != nil {
		panic(err)
	}
	if err := db.AutoMigrate(&Post{}); err != nil {
		panic(err)
	}

	first, second := Post{Title: "first"}, Post{Title: "second"}
	db.Create(&first)
	db.Create(&second)

	var posts []Post
	db.Order("id").Find(&posts)
	fmt.Println(!first.ID.IsZero(), posts[0].Title, posts[1].Title)
	// Output: true first second
}
