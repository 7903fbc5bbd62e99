// Package plotdep only pins gonum.org/v1/plot in go.mod until the figure code lands.
package plotdep

import _ "gonum.org/v1/plot"
