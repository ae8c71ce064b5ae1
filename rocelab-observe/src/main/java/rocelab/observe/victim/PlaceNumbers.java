package rocelab.observe.victim;

import java.util.Arrays;

/**
 * Numbers the distinct places it is given (a kind, a node and a port: a transmitter, or a root of some kind), 0, 1,
 * 2, ... in the order first seen, and gives a number's place back. {@link FlowWaits} keeps a million flows' slots as
 * these numbers (4 bytes) instead of long keys (8): a run's transmitters and roots are a few thousand, its flows'
 * slots millions. Looked up in a table per kind and node, by port: no hashing on the way of every wait (a hash table's
 * probe was 2.6 % of a 1,024-host all-to-all's loop).
 */
final class PlaceNumbers {
    /** Per kind, per node + 1 (-1 is a node: none), per port + 1: the place's number + 1 (0: not numbered yet). */
    private int[][][] numbers = new int[0][][];
    private int[] kinds = new int[16];
    private int[] nodes = new int[16];
    private int[] ports = new int[16];
    private int size;
    /** The place asked for last and its number: a transmitter's waits come in runs (the packets it held). */
    private int lastKind = -1;
    private int lastNode;
    private int lastPort;
    private int lastNumber;

    /** The place's number, numbering it now if it is new. {@code kind} 0 or more, {@code node} and {@code port} -1 or more. */
    int numberOf(int kind, int node, int port) {
        if (kind == lastKind && node == lastNode && port == lastPort) {
            return lastNumber;
        }
        int n = lookUp(kind, node, port);
        lastKind = kind;
        lastNode = node;
        lastPort = port;
        lastNumber = n;
        return n;
    }

    private int lookUp(int kind, int node, int port) {
        int[][][] byKind = numbers;
        if (kind < byKind.length) {
            int[][] byNode = byKind[kind];
            if (node + 1 < byNode.length) {
                int[] byPort = byNode[node + 1];
                if (byPort != null && port + 1 < byPort.length && byPort[port + 1] != 0) {
                    return byPort[port + 1] - 1;
                }
            }
        }
        return add(kind, node, port);
    }

    private int add(int kind, int node, int port) {
        if (kind < 0 || node < -1 || port < -1) {
            throw new IllegalArgumentException("no place " + kind + ", " + node + ", " + port);
        }
        if (kind >= numbers.length) {
            int old = numbers.length;
            numbers = Arrays.copyOf(numbers, kind + 1);
            for (int k = old; k <= kind; k++) {
                numbers[k] = new int[0][];
            }
        }
        int[][] byNode = numbers[kind];
        if (node + 1 >= byNode.length) {
            byNode = numbers[kind] = Arrays.copyOf(byNode, Math.max(node + 2, 2 * byNode.length));
        }
        int[] byPort = byNode[node + 1];
        if (byPort == null || port + 1 >= byPort.length) {
            byPort = byNode[node + 1] = byPort == null ? new int[Math.max(port + 2, 8)]
                    : Arrays.copyOf(byPort, Math.max(port + 2, 2 * byPort.length));
        }
        int n = size++;
        if (n == nodes.length) {
            kinds = Arrays.copyOf(kinds, 2 * n);
            nodes = Arrays.copyOf(nodes, 2 * n);
            ports = Arrays.copyOf(ports, 2 * n);
        }
        kinds[n] = kind;
        nodes[n] = node;
        ports[n] = port;
        byPort[port + 1] = n + 1;
        return n;
    }

    int kind(int n) {
        return kinds[n];
    }

    int node(int n) {
        return nodes[n];
    }

    int port(int n) {
        return ports[n];
    }

    int size() {
        return size;
    }
}
