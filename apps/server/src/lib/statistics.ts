/**
 * Small numerical helpers for the reports: Student's t quantile for confidence intervals. Computed
 * numerically (regularised incomplete beta function, then bisection) rather than from a lookup table, so
 * every number of degrees of freedom gets its own exact quantile.
 *
 * References: Press WH et al., Numerical Recipes, 3rd ed. (2007), §6.1 (log-gamma, Lanczos) and §6.4
 * (incomplete beta by continued fraction, modified Lentz); Abramowitz M, Stegun IA, Handbook of
 * Mathematical Functions (1964), 26.7.1 (Student's t distribution in terms of the incomplete beta).
 */

const LANCZOS = [
  57.15623566586292, -59.59796035547549, 14.136097974741746, -0.4919138160976202, 3.399464998481189e-5, 4.652362892704858e-5,
  -9.837447530487956e-5, 0.0001580887032249125, -0.00021026444172410488, 0.00021743961811521265, -0.0001643181065367639,
  8.441822398385275e-5, -2.6190838401581408e-5, 3.6899182659531625e-6,
];

/** ln Γ(x) for x > 0 (Lanczos approximation, g = 607/128; relative error below 1e-15). */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError('logGamma needs x > 0');
  let y = x;
  const tmp = x + 5.2421875;
  const t = (x + 0.5) * Math.log(tmp) - tmp;
  let series = 0.9999999999999971;
  for (const coefficient of LANCZOS) series += coefficient / ++y;
  return t + Math.log((2.5066282746310007 * series) / x);
}

/** Continued fraction of the incomplete beta function (modified Lentz); converges fast for x < (a+1)/(a+b+2). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) return h;
  }
  return h;
}

/** The regularised incomplete beta function I_x(a, b), for a, b > 0 and 0 ≤ x ≤ 1. */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError('regularizedIncompleteBeta needs a, b > 0');
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The continued fraction converges on the side of the symmetry point; use I_x(a,b) = 1 − I_{1−x}(b,a) past it.
  return x < (a + 1) / (a + b + 2)
    ? (front * betaContinuedFraction(a, b, x)) / a
    : 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom (A&S 26.7.1 via the incomplete beta). */
export function studentTCdf(t: number, df: number): number {
  if (!(df > 0)) throw new RangeError('studentTCdf needs df > 0');
  const tail = 0.5 * regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

const quantileCache = new Map<string, number>();

/**
 * The t such that P(T ≤ t) = p (0.5 ≤ p < 1), by bisection on the monotone CDF to 1e-12. Cached, as a
 * report asks for the same few degrees of freedom over and over.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p >= 0.5 && p < 1)) throw new RangeError('studentTQuantile needs 0.5 ≤ p < 1');
  if (!(df > 0)) throw new RangeError('studentTQuantile needs df > 0');
  const key = `${p}/${df}`;
  const cached = quantileCache.get(key);
  if (cached !== undefined) return cached;
  let low = 0;
  let high = 1;
  while (studentTCdf(high, df) < p) high *= 2;
  for (let step = 0; step < 200 && high - low > 1e-12; step++) {
    const middle = (low + high) / 2;
    if (studentTCdf(middle, df) < p) low = middle;
    else high = middle;
  }
  const quantile = (low + high) / 2;
  quantileCache.set(key, quantile);
  return quantile;
}

interface ConfidenceInterval {
  low: number;
  high: number;
}

/**
 * Two-sided 95 % confidence interval of a mean from n, the mean and the sample standard deviation:
 * mean ± t(0.975, n − 1) · sd / √n. Null below two observations (no spread to estimate).
 */
export function meanConfidenceInterval95(n: number, mean: number | null, sd: number | null): ConfidenceInterval | null {
  if (n < 2 || mean === null || sd === null) return null;
  const half = (studentTQuantile(0.975, n - 1) * sd) / Math.sqrt(n);
  return { low: mean - half, high: mean + half };
}
