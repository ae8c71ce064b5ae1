package rocelab.workload.traffic;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A flow-size distribution given as a piecewise-linear cumulative distribution: points (size in bytes, percent of
 * flows at or below it), the first at 0 %, the last at 100 %, both strictly increasing. This is the form the
 * congestion-control literature publishes its workloads in (and the ns-3 RDMA model's traffic generator reads): a
 * size is drawn by inverting the CDF with linear interpolation between the points, so the sizes within a segment are
 * uniform, and the mean is the sum over the segments of their midpoint times their share.
 *
 * @param name how the distribution is named in outputs: a built-in name, or the file it was read from
 */
public record FlowSizeCdf(String name, double[] sizes, double[] percents) {
    /**
     * Web search (Alizadeh et al., DCTCP, SIGCOMM 2010; the points the HPCC paper's simulations use): many small
     * queries, most bytes in flows of 1-30 MB. Mean 1,711,250 bytes.
     */
    public static final FlowSizeCdf WEBSEARCH = new FlowSizeCdf("websearch",
            new double[] {0, 10_000, 20_000, 30_000, 50_000, 80_000, 200_000, 1_000_000, 2_000_000, 5_000_000,
                10_000_000, 30_000_000},
            new double[] {0, 15, 20, 30, 40, 53, 60, 70, 80, 90, 97, 100});

    /**
     * Facebook's Hadoop cluster (Roy et al., SIGCOMM 2015; the points the HPCC paper's simulations use): half the
     * flows under 1 KB, a long tail to 10 MB. Mean 120,420.75 bytes.
     */
    public static final FlowSizeCdf FB_HADOOP = new FlowSizeCdf("fb-hadoop",
            new double[] {0, 100, 200, 300, 350, 400, 500, 600, 700, 1_000, 2_000, 7_000, 30_000, 50_000, 80_000,
                120_000, 300_000, 1_000_000, 2_000_000, 10_000_000},
            new double[] {0, 1, 2, 5, 15, 20, 30, 40, 50, 60, 67, 70, 72, 82, 87, 90, 95, 97.5, 99, 100});

    /**
     * Alibaba's distributed storage in 2019 (as published with the HPCC simulations): mostly 4-32 KB blocks, none
     * above 2 MB. Mean 40,869.8 bytes.
     */
    public static final FlowSizeCdf ALI_STORAGE = new FlowSizeCdf("alistorage2019",
            new double[] {0, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 2_000_000},
            new double[] {0, 22.93, 69.21, 80.61, 90.47, 93.53, 96.77, 97.53, 100});

    /** The built-in distributions, by the names a scenario uses. */
    public static final List<FlowSizeCdf> BUILT_IN = List.of(WEBSEARCH, FB_HADOOP, ALI_STORAGE);

    public FlowSizeCdf {
        String problem = problem(sizes, percents);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        sizes = sizes.clone();
        percents = percents.clone();
    }

    /**
     * What is wrong with these points as a CDF, or null: at least two points, the same number of each, sizes from 0
     * up strictly increasing, percents from 0 to 100 strictly increasing.
     */
    public static String problem(double[] sizes, double[] percents) {
        if (sizes.length != percents.length) {
            return "a CDF needs as many sizes as percents";
        }
        if (sizes.length < 2) {
            return "a CDF needs at least two points (its 0 % and its 100 %)";
        }
        if (percents[0] != 0) {
            return "the first point's percent is " + percents[0] + "; expected 0";
        }
        if (percents[percents.length - 1] != 100) {
            return "the last point's percent is " + percents[percents.length - 1] + "; expected 100";
        }
        if (!(sizes[0] >= 0)) {
            return "the first size is " + sizes[0] + "; expected 0 or more";
        }
        for (int i = 1; i < sizes.length; i++) {
            if (!(sizes[i] > sizes[i - 1])) {
                return "size " + sizes[i] + " does not exceed the one before it (" + sizes[i - 1]
                        + "); expected sizes that increase";
            }
            if (!(percents[i] > percents[i - 1])) {
                return "percent " + percents[i] + " does not exceed the one before it (" + percents[i - 1]
                        + "); expected percents that increase";
            }
        }
        return null;
    }

    /** The built-in distribution of that name, or null. */
    public static FlowSizeCdf named(String name) {
        for (FlowSizeCdf c : BUILT_IN) {
            if (c.name.equals(name)) {
                return c;
            }
        }
        return null;
    }

    /** Whether this is one of the built-in distributions. */
    public boolean builtIn() {
        return BUILT_IN.contains(this);
    }

    /** The mean size in bytes: each segment's midpoint weighted by its share of flows. */
    public double meanBytes() {
        double sum = 0;
        for (int i = 1; i < sizes.length; i++) {
            sum += (sizes[i] + sizes[i - 1]) / 2 * (percents[i] - percents[i - 1]);
        }
        return sum / 100;
    }

    /** The size at {@code percent} (0 <= percent <= 100), interpolated linearly between the points. */
    public double sizeAt(double percent) {
        int i = 1;
        while (i < percents.length - 1 && percent > percents[i]) {
            i++;
        }
        double p0 = percents[i - 1];
        double p1 = percents[i];
        return sizes[i - 1] + (sizes[i] - sizes[i - 1]) * (percent - p0) / (p1 - p0);
    }

    /** A size drawn from the distribution: whole bytes, at least one. */
    public long sample(SplittableRandom random) {
        return Math.max(1L, (long) sizeAt(random.nextDouble() * 100));
    }

    /** The largest size the distribution can draw. */
    public long maxBytes() {
        return Math.max(1L, (long) sizes[sizes.length - 1]);
    }

    @Override
    public double[] sizes() {
        return sizes.clone();
    }

    @Override
    public double[] percents() {
        return percents.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FlowSizeCdf c && c.name.equals(name) && Arrays.equals(c.sizes, sizes)
                && Arrays.equals(c.percents, percents);
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + Arrays.hashCode(sizes) * 17 + Arrays.hashCode(percents);
    }

    @Override
    public String toString() {
        return name;
    }
}
