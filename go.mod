module github.com/iceagechess/iceage

go 1.26.0

require (
	github.com/fogleman/gg v1.3.0
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0
	github.com/nicksnyder/go-i18n/v2 v2.7.0
	go.etcd.io/bbolt v1.5.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/image v0.48.0
	golang.org/x/text v0.44.0
)

require golang.org/x/sys v0.50.0 // indirect
