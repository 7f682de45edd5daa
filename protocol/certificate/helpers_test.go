package certificate

import (
	"reflect"
	"runtime"
)

func funcName(f any) string {
	return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}
