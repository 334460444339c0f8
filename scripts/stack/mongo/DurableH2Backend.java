import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.h2.mvstore.MVStore;

/**
 * The H2 backend with two changes.
 *
 * <p>Durability: every command is answered only after its changes are committed to the file
 * (MVStore commit: a new chunk written through the OS, no fsync), so a kill -9 of the engine loses
 * no acknowledged write; an OS crash may still lose the last writes, like MongoDB without
 * journaled write concern. Concurrent writers share commits: a commit stores every change made
 * before it, and a writer whose change is already stored finds nothing left to commit.
 *
 * <p>Indexes: {@link IndexedDatabase} wraps unique indexes so that they also serve filters with
 * more fields than the index (like MongoDB), and builds non-unique indexes, which the engine
 * itself ignores, as {@link SecondaryIndex}es.
 */
final class DurableH2Backend extends H2Backend {
  DurableH2Backend(MVStore store) {
    super(store);
  }

  /**
   * Commands that never change data: answered without a commit. A commit (and even asking whether
   * one is needed) visits every map of the store, so it costs more as databases accumulate; skipping
   * it for reads halved the engine's CPU per order. Anything not listed here is committed.
   */
  private static final Set<String> READS = Set.of(
      "find", "getmore", "count", "distinct", "listcollections", "listindexes", "listdatabases",
      "ping", "hello", "ismaster", "buildinfo", "killcursors", "endsessions", "serverstatus",
      "dbstats", "collstats", "whatsmyuri", "getlog", "connectionstatus", "getparameter",
      "hostinfo", "getcmdlineopts", "getfreemonitoringstatus");

  @Override
  public Document handleCommand(Channel channel, String database, String command, Document query) {
    try {
      return super.handleCommand(channel, database, command, query);
    } finally {
      // After failures too: an ordered insert that stopped at a duplicate kept its earlier documents.
      if (!isRead(command, query)) {
        getMvStore().commit();
      }
    }
  }

  private static boolean isRead(String command, Document query) {
    String name = command.toLowerCase(Locale.ROOT);
    if (name.equals("aggregate")) {
      Object pipeline = query.get("pipeline");
      return !(pipeline instanceof List<?> stages) || stages.stream().noneMatch(stage -> stage instanceof Document d && (d.containsKey("$out") || d.containsKey("$merge")));
    }
    return READS.contains(name);
  }

  @Override
  protected MongoDatabase openOrCreateDatabase(String databaseName) {
    return new IndexedDatabase(databaseName, getMvStore(), this);
  }

  de.bwaldvogel.mongo.backend.CursorRegistry cursors() {
    return getCursorRegistry();
  }

  static final class IndexedDatabase extends H2Database {
    IndexedDatabase(String name, MVStore store, DurableH2Backend backend) {
      super(name, store, backend.cursors());
    }

    @Override
    protected Index<Object> openOrCreateUniqueIndex(String collection, String name, List<IndexKey> keys, boolean sparse) {
      return new EqualityUniqueIndex(super.openOrCreateUniqueIndex(collection, name, keys, sparse), name, keys, sparse);
    }

    @Override
    protected Index<Object> openOrCreateSecondaryIndex(String collection, String name, List<IndexKey> keys, boolean sparse) {
      return new SecondaryIndex(name, keys, sparse);
    }
  }
}
