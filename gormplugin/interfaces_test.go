package gormplugin

import "gorm.io/gorm"

// The interfaces GORM reaches the plugin and its wrapped dialector
// through: a change to GORM's fails the build.
var (
	_ gorm.Plugin    = (*Plugin)(nil)
	_ gorm.Dialector = dialector{}
	_ gorm.Migrator  = migrator{}
)
