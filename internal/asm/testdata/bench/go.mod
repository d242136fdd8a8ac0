module example.com/asmbench

go 1.26
