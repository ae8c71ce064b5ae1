package rocelab.scenario.chakra;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import rocelab.scenario.chakra.proto.EtDef;
import rocelab.scenario.chakra.proto.EtDef.AttributeProto;
import rocelab.scenario.chakra.proto.EtDef.CollectiveCommType;
import rocelab.scenario.chakra.proto.EtDef.NodeType;

/**
 * Writes Chakra execution traces through the classes generated from et_def.proto, as Chakra's own generator does:
 * per rank a length-delimited GlobalMetadata, then length-delimited Nodes, with the attributes named and typed as
 * Chakra's converter writes them (comm_type, comm_size, pg_name, comm_src, comm_dst, comm_tag, is_cpu_op).
 */
public final class ChakraTraces {
    /** One rank's trace, built node by node; every method returns the new node's id. */
    public static final class Rank {
        private final int rank;
        private final List<EtDef.Node> nodes = new ArrayList<>();
        private long nextId = 1;

        Rank(int rank) {
            this.rank = rank;
        }

        private EtDef.Node.Builder node(String name, NodeType type, long... deps) {
            EtDef.Node.Builder b = EtDef.Node.newBuilder().setId(nextId++).setName(name).setType(type);
            // Chakra's converter writes both kinds; the first dependency as a data dependency, the rest as control.
            for (int i = 0; i < deps.length; i++) {
                if (i == 0) {
                    b.addDataDeps(deps[i]);
                } else {
                    b.addCtrlDeps(deps[i]);
                }
            }
            return b;
        }

        private long add(EtDef.Node.Builder b) {
            nodes.add(b.build());
            return b.getId();
        }

        public long comp(String name, long micros, long... deps) {
            return add(node(name, NodeType.COMP_NODE, deps).setDurationMicros(micros)
                    .addAttr(AttributeProto.newBuilder().setName("is_cpu_op").setBoolVal(false)));
        }

        /** A COMP_NODE timed by its operation count (num_ops) instead of a duration. */
        public long compOps(String name, long ops, long... deps) {
            return add(node(name, NodeType.COMP_NODE, deps)
                    .addAttr(AttributeProto.newBuilder().setName("is_cpu_op").setBoolVal(false))
                    .addAttr(AttributeProto.newBuilder().setName("num_ops").setInt64Val(ops)));
        }

        public long mem(String name, boolean load, long micros, long... deps) {
            return add(node(name, load ? NodeType.MEM_LOAD_NODE : NodeType.MEM_STORE_NODE, deps)
                    .setDurationMicros(micros)
                    .addAttr(AttributeProto.newBuilder().setName("tensor_size").setUint64Val(1 << 20)));
        }

        /** A collective; {@code pg} null: no pg_name (the whole job). */
        public long coll(String name, CollectiveCommType type, long bytes, String pg, long... deps) {
            EtDef.Node.Builder b = node(name, NodeType.COMM_COLL_NODE, deps)
                    .addAttr(AttributeProto.newBuilder().setName("is_cpu_op").setBoolVal(false))
                    .addAttr(AttributeProto.newBuilder().setName("comm_type").setInt64Val(type.getNumber()))
                    .addAttr(AttributeProto.newBuilder().setName("comm_size").setInt64Val(bytes));
            if (pg != null) {
                b.addAttr(AttributeProto.newBuilder().setName("pg_name").setStringVal(pg));
            }
            return add(b);
        }

        public long send(String name, int dst, int tag, long bytes, long... deps) {
            return add(node(name, NodeType.COMM_SEND_NODE, deps)
                    .addAttr(AttributeProto.newBuilder().setName("comm_src").setInt32Val(rank))
                    .addAttr(AttributeProto.newBuilder().setName("comm_dst").setInt32Val(dst))
                    .addAttr(AttributeProto.newBuilder().setName("comm_tag").setInt32Val(tag))
                    .addAttr(AttributeProto.newBuilder().setName("comm_size").setInt64Val(bytes)));
        }

        public long recv(String name, int src, int tag, long bytes, long... deps) {
            return add(node(name, NodeType.COMM_RECV_NODE, deps)
                    .addAttr(AttributeProto.newBuilder().setName("comm_src").setInt32Val(src))
                    .addAttr(AttributeProto.newBuilder().setName("comm_dst").setInt32Val(rank))
                    .addAttr(AttributeProto.newBuilder().setName("comm_tag").setInt32Val(tag))
                    .addAttr(AttributeProto.newBuilder().setName("comm_size").setInt64Val(bytes)));
        }

        /** Adds a node as given (for malformed traces). */
        public void raw(EtDef.Node node) {
            nodes.add(node);
        }

        /** The bytes of the last node's message in {@link #bytes}, its length prefix included. */
        public int lastMessageLength() {
            int size = nodes.get(nodes.size() - 1).getSerializedSize();
            return com.google.protobuf.CodedOutputStream.computeUInt32SizeNoTag(size) + size;
        }

        /** The file's bytes: the metadata, then every node, each with its varint length before it. */
        public byte[] bytes() {
            try {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                EtDef.GlobalMetadata.newBuilder().setVersion("0.0.4").build().writeDelimitedTo(out);
                for (EtDef.Node n : nodes) {
                    n.writeDelimitedTo(out);
                }
                return out.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private final List<Rank> ranks = new ArrayList<>();

    public ChakraTraces(int count) {
        for (int r = 0; r < count; r++) {
            ranks.add(new Rank(r));
        }
    }

    public Rank rank(int r) {
        return ranks.get(r);
    }

    public int size() {
        return ranks.size();
    }

    /** Writes {@code prefix.R.et} for every rank into {@code dir} (made if missing). */
    public void write(Path dir, String prefix) throws IOException {
        Files.createDirectories(dir);
        for (int r = 0; r < ranks.size(); r++) {
            Files.write(dir.resolve(prefix + "." + r + ".et"), ranks.get(r).bytes());
        }
    }
}
