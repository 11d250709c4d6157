package org.dataloader4j.spark.internal;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.classic.SparkSession;

/**
 * A Hadoop {@link Configuration} that travels to the executors: the session's configuration
 * (its {@code spark.hadoop.*} settings and its SQL settings), with the data source's other
 * options on top, as Spark's own file sources build it. Credentials stay inside the
 * configuration and are never printed.
 */
final class HadoopConf implements Serializable {
    private static final long serialVersionUID = 1L;

    private transient Configuration conf;

    private HadoopConf(Configuration conf) {
        this.conf = conf;
    }

    /** The active session's configuration with {@code options} (all but the source's own) set on it. */
    static Configuration forSession(Map<String, String> options) {
        Configuration conf = SparkSession.active().sessionState().newHadoopConf();
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (!SourceOptions.isOwn(e.getKey()) && e.getValue() != null) {
                conf.set(e.getKey(), e.getValue());
            }
        }
        return conf;
    }

    /** {@code conf}, sent once to every executor. */
    static Broadcast<HadoopConf> broadcast(Configuration conf) {
        return JavaSparkContext.fromSparkContext(SparkSession.active().sparkContext()).broadcast(new HadoopConf(conf));
    }

    /** The configuration; shared by the tasks of an executor, so read only. */
    Configuration get() {
        return conf;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
        conf.write(out);
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        conf = new Configuration(false);
        conf.readFields(in);
    }
}
