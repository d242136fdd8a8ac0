module example.com/gotestdata

go 1.24
