module github.com/iceagechess/iceage

go 1.26
