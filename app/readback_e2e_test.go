package app_test
