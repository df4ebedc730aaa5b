module github.com/sortid/sortid

go 1.26.0
