package lookout.engine.weighted;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Pearson's chi-squared goodness-of-fit test, with the exact upper tail of the distribution. */
final class ChiSquared {

    private ChiSquared() {
    }

    /** Result: statistic, degrees of freedom, p-value. */
    record Result(double statistic, int df, double pValue) {
    }

    /**
     * Observed counts against expected probabilities over the same keys; bins expecting fewer
     * than 5 are pooled into one (the usual validity rule). An observed key without expected
     * probability makes the p-value 0.
     */
    static Result test(Map<String, Integer> observed, Map<String, Double> expected, int n) {
        for (String k : observed.keySet()) {
            if (!expected.containsKey(k) || expected.get(k) <= 0) {
                return new Result(Double.POSITIVE_INFINITY, 0, 0.0);
            }
        }
        List<double[]> bins = new ArrayList<>(); // {observed, expected}
        double pooledO = 0;
        double pooledE = 0;
        for (var e : expected.entrySet()) {
            double exp = e.getValue() * n;
            double obs = observed.getOrDefault(e.getKey(), 0);
            if (exp < 5) {
                pooledO += obs;
                pooledE += exp;
            } else {
                bins.add(new double[] {obs, exp});
            }
        }
        if (pooledE > 0) {
            bins.add(new double[] {pooledO, pooledE});
        }
        double stat = 0;
        for (double[] b : bins) {
            stat += (b[0] - b[1]) * (b[0] - b[1]) / b[1];
        }
        int df = bins.size() - 1;
        return new Result(stat, df, df <= 0 ? 1.0 : upperTail(df, stat));
    }

    /** P(X >= x) for X ~ chi-squared(df): the regularized upper incomplete gamma Q(df/2, x/2). */
    static double upperTail(int df, double x) {
        return gammaQ(df / 2.0, x / 2.0);
    }

    private static double gammaQ(double a, double x) {
        if (x <= 0) {
            return 1.0;
        }
        if (x < a + 1) {
            // series for P, then Q = 1 - P
            double sum = 1.0 / a;
            double term = sum;
            for (int n = 1; n < 10_000; n++) {
                term *= x / (a + n);
                sum += term;
                if (Math.abs(term) < Math.abs(sum) * 1e-15) {
                    break;
                }
            }
            return 1.0 - sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
        }
        // continued fraction for Q (Lentz)
        double b = x + 1 - a;
        double c = 1.0 / 1e-300;
        double d = 1.0 / b;
        double h = d;
        for (int i = 1; i < 10_000; i++) {
            double an = -i * (i - a);
            b += 2;
            d = an * d + b;
            if (Math.abs(d) < 1e-300) {
                d = 1e-300;
            }
            c = b + an / c;
            if (Math.abs(c) < 1e-300) {
                c = 1e-300;
            }
            d = 1.0 / d;
            double del = d * c;
            h *= del;
            if (Math.abs(del - 1.0) < 1e-15) {
                break;
            }
        }
        return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
    }

    /** Lanczos approximation of ln Γ(x). */
    private static double logGamma(double x) {
        double[] g = {76.18009172947146, -86.50532032941677, 24.01409824083091, -1.231739572450155,
            0.1208650973866179e-2, -0.5395239384953e-5};
        double y = x;
        double tmp = x + 5.5;
        tmp -= (x + 0.5) * Math.log(tmp);
        double ser = 1.000000000190015;
        for (double c : g) {
            ser += c / ++y;
        }
        return -tmp + Math.log(2.5066282746310005 * ser / x);
    }
}
