package machine

// LoadAvg is /proc/loadavg: the average number of tasks runnable or in
// uninterruptible sleep over 1, 5 and 15 minutes, and the tasks running now.
type LoadAvg struct {
	Load1    float64 `json:"load1"`
	Load5    float64 `json:"load5"`
	Load15   float64 `json:"load15"`
	Runnable int     `json:"runnable"` // runnable tasks now (includes benchy itself)
	Tasks    int     `json:"tasks"`    // all tasks (threads) on the machine
}
