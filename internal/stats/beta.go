package stats

import "math"

// The regularized incomplete beta function I_x(a, b) and its inverse: the
// cumulative distribution of Beta(a, b), through which Student's t and the
// binomial are computed (dist.go, sign.go). They are written here rather
// than taken from gonum's mathext, which brings four packages (its Bessel
// and Cephes ports among them) into every program built on benchy for
// these two functions. The tests compare them with mathext over the
// parameters benchy uses.

// regIncBeta is I_x(a, b) for a, b > 0 and x in [0, 1]: 0 at or below 0,
// 1 at or above 1.
//
// Method: the continued fraction of DLMF 8.17.22, evaluated by the
// modified Lentz algorithm, converges quickly for x below the mean-like
// point (a+1)/(a+b+2); above it the symmetry I_x(a, b) = 1 - I_{1-x}(b, a)
// moves the work to the other tail, where the result is near 1 and the
// subtraction loses nothing that matters. The fraction takes about
// √max(a, b) terms. Accuracy: a few ulps times a+b relative (the function
// itself moves by that much when x moves by one ulp).
func regIncBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	case x > (a+1)/(a+b+2):
		return 1 - regIncBeta(b, a, 1-x)
	}
	return betaFront(a, b, x) / a * betaFraction(a, b, x)
}

// betaFront is x^a (1-x)^b / B(a, b), the factor in front of the
// continued fraction (and x(1-x) times the density of Beta(a, b) at x).
// Computed as one exponential of small terms so that it neither overflows
// nor cancels when a and b are large (a binomial of a million trials): by
// Stirling's formula with its exact remainder δ,
//
//	x^a y^b / B(a, b) = √(ab / 2πc) · (xc/a)^a (yc/b)^b · e^(δ(c)-δ(a)-δ(b))
//
// with y = 1-x and c = a+b. Near the mode x = a/c the two powers are
// near 1: there xc/a = 1 + e/a and yc/b = 1 - e/b for e = xb - ya, whose
// logarithms log1p keeps exact; far from it, the plain logarithm is.
func betaFront(a, b, x float64) float64 {
	y := 1 - x
	c := a + b
	e := x*b - y*a
	lg := logRatio(a, x, c, e) + logRatio(b, y, c, -e) + stirlingErr(c) - stirlingErr(a) - stirlingErr(b)
	return math.Sqrt(a*b/(2*math.Pi*c)) * math.Exp(lg)
}

// logRatio is a·log(xc/a), given e = xc - a.
func logRatio(a, x, c, e float64) float64 {
	if math.Abs(e) < a/2 {
		return a * math.Log1p(e/a)
	}
	return a * (math.Log(x) + math.Log(c/a))
}

// stirlingErr is δ(z) = log Γ(z) - ((z-½) log z - z + ½ log 2π), the
// remainder of Stirling's formula, for z > 0. From z = 10 on, its
// asymptotic series (terms 1/12z - 1/360z³ + …, the Bernoulli numbers
// B₂ₖ/(2k(2k-1)z^(2k-1))) is exact to about 1e-16 with five terms;
// below, math.Lgamma is small enough that the difference keeps its
// precision.
func stirlingErr(z float64) float64 {
	if z < 10 {
		lg, _ := math.Lgamma(z)
		return lg - ((z-0.5)*math.Log(z) - z + 0.5*math.Log(2*math.Pi))
	}
	r := 1 / (z * z)
	return (1.0/12 - r*(1.0/360-r*(1.0/1260-r*(1.0/1680-r*(1.0/1188))))) / z
}

// betaFraction is the continued fraction of I_x(a, b) (DLMF 8.17.22),
//
//	1 / (1 + d₁ / (1 + d₂ / (1 + …)))
//	d₂ₘ₊₁ = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)),  d₂ₘ = m(b-m) x / ((a+2m-1)(a+2m)),
//
// by the modified Lentz algorithm: forward, keeping the ratios of
// successive numerators and denominators (c and d), each guarded from 0.
func betaFraction(a, b, x float64) float64 {
	const (
		tiny = 1e-300
		eps  = 2 * 0x1p-52 // a step within two ulps of 1 changes nothing
	)
	guard := func(v float64) float64 {
		if math.Abs(v) < tiny {
			return tiny
		}
		return v
	}
	c := 1.0
	d := 1 / guard(1-(a+b)*x/(a+1))
	h := d
	for m := 1.0; m < 1e6; m++ {
		// The even term, then the odd one.
		dm := m * (b - m) * x / ((a + 2*m - 1) * (a + 2*m))
		d = 1 / guard(1+dm*d)
		c = guard(1 + dm/c)
		h *= d * c
		dm = -(a + m) * (a + b + m) * x / ((a + 2*m) * (a + 2*m + 1))
		d = 1 / guard(1+dm*d)
		c = guard(1 + dm/c)
		step := d * c
		h *= step
		if math.Abs(step-1) <= eps {
			break
		}
	}
	return h
}

// invRegIncBeta is the x in [0, 1] with I_x(a, b) = p, for a, b > 0 and p
// in [0, 1].
//
// Method: Newton's method on log I_x(a, b) = log p as a function of
// log x, kept inside a bracket of the root that every evaluation narrows;
// a step that would leave the bracket bisects it instead (geometrically
// while its lower end is far below the upper, as for a root near 0). In
// logarithms a tail where I grows as a power of x (every tail of a large
// or a small parameter) is a straight line, which Newton solves in a step
// where it would creep in x itself; near the root it converges
// quadratically, as Newton does. The start is Abramowitz and Stegun's
// 26.5.22 for a, b ≥ 1 and the power-law shape of each tail otherwise. It
// stops when a step moves x by less than about two ulps. For p above ½ it
// solves the mirror image, I_{1-x}(b, a) = 1-p, where 1-p is exact.
func invRegIncBeta(a, b, p float64) float64 {
	switch {
	case p <= 0:
		return 0
	case p >= 1:
		return 1
	case p > 0.5:
		// Near 1, I_x(a, b) has only absolute precision; I_{1-x}(b, a)
		// is small there and keeps its relative precision.
		return 1 - invRegIncBeta(b, a, 1-p)
	}
	x := betaStart(a, b, p)
	lo, hi := 0.0, 1.0
	for range 200 {
		f := regIncBeta(a, b, x) - p
		switch {
		case f == 0:
			return x
		case f < 0:
			lo = x
		default:
			hi = x
		}
		// Newton's step on log I against log x: u = d log I / d log x.
		next := math.NaN()
		if u := betaFront(a, b, x) / ((1 - x) * (f + p)); u > 0 {
			next = x * math.Exp(-math.Log1p(f/p)/u)
		}
		if !(next > lo && next < hi) {
			switch {
			case lo == 0:
				next = hi / 16
			case hi > 4*lo:
				next = math.Sqrt(lo * hi)
			default:
				next = lo + (hi-lo)/2
			}
		}
		if math.Abs(next-x) <= 4e-16*x || next == lo || next == hi {
			return next
		}
		x = next
	}
	return x
}

// betaStart is a first guess at invRegIncBeta(a, b, p), for 0 < p < 1.
func betaStart(a, b, p float64) float64 {
	if a >= 1 && b >= 1 {
		// Abramowitz and Stegun 26.5.22: the normal point z with
		// upper tail p (26.2.22's rational approximation) mapped
		// through the beta's approximate normalising transformation.
		t := math.Sqrt(-2 * math.Log(min(p, 1-p)))
		z := t - (2.30753+0.27061*t)/(1+(0.99229+0.04481*t)*t)
		if p > 0.5 {
			z = -z
		}
		l := (z*z - 3) / 6
		h := 2 / (1/(2*a-1) + 1/(2*b-1))
		w := z*math.Sqrt(h+l)/h - (1/(2*b-1)-1/(2*a-1))*(l+5.0/6-2/(3*h))
		return a / (a + b*math.Exp(2*w))
	}
	// A small parameter makes a tail a power law: near 0 the function
	// grows as x^a, near 1 it misses 1 by (1-x)^b. Share p between the
	// two by their approximate masses and invert the power of its tail.
	lt := math.Exp(a*math.Log(a/(a+b))) / a
	ut := math.Exp(b*math.Log(b/(a+b))) / b
	w := lt + ut
	if p < lt/w {
		return math.Pow(a*w*p, 1/a)
	}
	return 1 - math.Pow(b*w*(1-p), 1/b)
}
