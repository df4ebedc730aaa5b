module github.com/sortid/sortid/bench

go 1.26.0

require (
	github.com/segmentio/ksuid v1.0.4
	github.com/sortid/sortid v0.0.0
	go.mongodb.org/mongo-driver/v2 v2.10.0
)

replace github.com/sortid/sortid => ../
