package rocelab.workload.inference;

import java.util.Arrays;

/**
 * One model replica: {@code hosts} are its tensor-parallel ranks in rank order (rank i holds the i-th slice of the
 * KV heads), and it serves one role: prefill (prompt processing) or decode (token generation).
 */
public record ServingInstance(String name, Role role, int[] hosts) {
    /** What an instance does. */
    public enum Role {
        PREFILL("prefill"), DECODE("decode");

        private final String key;

        Role(String key) {
            this.key = key;
        }

        public String key() {
            return key;
        }
    }

    public ServingInstance {
        hosts = hosts.clone();
        if (hosts.length < 1) {
            throw new IllegalArgumentException("an instance needs at least one host");
        }
        if (Arrays.stream(hosts).distinct().count() != hosts.length) {
            throw new IllegalArgumentException("instance " + name + " lists a host twice");
        }
    }

    @Override
    public int[] hosts() {
        return hosts.clone();
    }

    /** Tensor-parallel degree: one rank per host. */
    public int tp() {
        return hosts.length;
    }

    public int host(int rank) {
        return hosts[rank];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ServingInstance s && name.equals(s.name) && role == s.role && Arrays.equals(hosts, s.hosts);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(hosts);
    }

    @Override
    public String toString() {
        return name + "(" + role.key() + " tp=" + hosts.length + " hosts=" + Arrays.toString(hosts) + ")";
    }
}
