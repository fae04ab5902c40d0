module kompact

go 1.26
