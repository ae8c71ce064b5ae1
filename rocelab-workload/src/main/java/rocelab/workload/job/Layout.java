package rocelab.workload.job;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A job's parallelism layout: the degree of each dimension, the order in which coordinates vary along the rank
 * numbering (fastest first; Megatron's default is tp, cp, ep, dp, pp, so tensor-parallel peers are neighbours and
 * share a server), and the host that runs each rank. Communication groups are derived from it: the group of a set
 * of dimensions holds the ranks that differ only in those dimensions.
 */
public record Layout(Map<Dim, Integer> degrees, List<Dim> order, int[] hosts) {
    /** Megatron's default rank order. */
    public static final List<Dim> MEGATRON_ORDER = List.of(Dim.TP, Dim.CP, Dim.EP, Dim.DP, Dim.PP);

    public Layout {
        EnumMap<Dim, Integer> d = new EnumMap<>(Dim.class);
        for (Dim dim : Dim.values()) {
            int v = degrees.getOrDefault(dim, 1);
            if (v < 1) {
                throw new IllegalArgumentException(dim.key() + " must be at least 1");
            }
            d.put(dim, v);
        }
        degrees = Collections.unmodifiableMap(d);
        if (order.size() != Dim.values().length || EnumSet.copyOf(order).size() != Dim.values().length) {
            throw new IllegalArgumentException("the order must name each of tp, cp, ep, dp, pp once");
        }
        order = List.copyOf(order);
        hosts = hosts.clone();
        long size = 1;
        for (int v : d.values()) {
            size *= v;
        }
        if (size != hosts.length) {
            throw new IllegalArgumentException("the layout has " + size + " ranks but " + hosts.length
                    + " hosts are placed");
        }
    }

    public int size() {
        return hosts.length;
    }

    public int degree(Dim d) {
        return degrees.get(d);
    }

    public int host(int rank) {
        return hosts[rank];
    }

    @Override
    public int[] hosts() {
        return hosts.clone();
    }

    /** The coordinate of {@code rank} in dimension {@code d}. */
    public int coord(int rank, Dim d) {
        int r = rank;
        for (Dim o : order) {
            int deg = degree(o);
            if (o == d) {
                return r % deg;
            }
            r /= deg;
        }
        throw new IllegalStateException();
    }

    /** The rank with these coordinates. */
    public int rank(Map<Dim, Integer> coords) {
        int r = 0;
        int stride = 1;
        for (Dim o : order) {
            r += coords.get(o) * stride;
            stride *= degree(o);
        }
        return r;
    }

    /** The coordinates of a rank. */
    public Map<Dim, Integer> coords(int rank) {
        EnumMap<Dim, Integer> c = new EnumMap<>(Dim.class);
        for (Dim d : Dim.values()) {
            c.put(d, coord(rank, d));
        }
        return c;
    }

    /**
     * The ranks that differ from {@code rank} only in {@code dims}, in rank order (which is also ring order). Built
     * from the strides of the dimensions, so a call costs the group's size, not the job's (a job asks once per
     * group of every collective step: scanning every rank each time grew with ranks squared).
     */
    public int[] group(int rank, Set<Dim> dims) {
        int size = 1;
        for (Dim d : dims) {
            size *= degree(d);
        }
        int[] members = new int[size];
        int base = rank;
        int stride = 1;
        for (Dim o : order) {
            if (dims.contains(o)) {
                base -= coord(rank, o) * stride;
            }
            stride *= degree(o);
        }
        members[0] = base;
        int count = 1;
        stride = 1;
        for (Dim o : order) {
            int deg = degree(o);
            if (dims.contains(o)) {
                // Offsets so far are below this stride, so block c of the new members follows block c - 1.
                for (int c = 1; c < deg; c++) {
                    for (int j = 0; j < count; j++) {
                        members[c * count + j] = members[j] + c * stride;
                    }
                }
                count *= deg;
            }
            stride *= deg;
        }
        return members;
    }

    /** A rank's variables for expressions: its coordinates and every degree. */
    public Map<String, Long> variables(int rank) {
        Map<String, Long> v = new HashMap<>();
        for (Dim d : Dim.values()) {
            v.put(d.key(), (long) coord(rank, d));
            v.put(d.degreeKey(), (long) degree(d));
        }
        return v;
    }

    /** Every name an expression may use: coordinates and degrees. */
    public static Set<String> names() {
        Set<String> s = new HashSet<>();
        for (Dim d : Dim.values()) {
            s.add(d.key());
            s.add(d.degreeKey());
        }
        return s;
    }
}
