package rocelab.workload.job;

import java.util.Locale;

/** A parallelism dimension: tensor, context, expert, data and pipeline parallelism. */
public enum Dim {
    TP, CP, EP, DP, PP;

    /** The coordinate's name in expressions and scenarios ({@code tp}). */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The degree's name in expressions ({@code TP}). */
    public String degreeKey() {
        return name();
    }

    public static Dim ofKey(String key) {
        for (Dim d : values()) {
            if (d.key().equals(key)) {
                return d;
            }
        }
        return null;
    }
}
