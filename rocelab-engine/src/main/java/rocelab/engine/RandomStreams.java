package rocelab.engine;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Derives an independent, reproducible random stream for each component from one master seed and a stable
 * name (for example {@code "switch/leaf3/ecmp"}), so adding a component never shifts another one's draws.
 */
public final class RandomStreams {
    private final long seed;

    public RandomStreams(long seed) {
        this.seed = seed;
    }

    public long seed() {
        return seed;
    }

    public SplittableRandom forComponent(String path) {
        return new SplittableRandom(derive(path));
    }

    /** A 64-bit value derived from the master seed and the path; stable across runs and JVMs. */
    public long derive(String path) {
        long h = seed ^ 0x9E3779B97F4A7C15L;
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            h = mix64(h ^ (b & 0xff));
        }
        return mix64(h);
    }

    /** The finaliser of SplitMix64 / MurmurHash3: a bijective 64-bit mix. */
    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
