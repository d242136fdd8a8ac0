// Package notests has no test files.
package notests
