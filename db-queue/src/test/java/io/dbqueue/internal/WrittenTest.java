package io.dbqueue.internal;

import io.dbqueue.TestDatabase;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WrittenTest {

    /**
     * A write in a transaction of its own gives its connection back with auto-commit on: a pool that does not reset
     * it (Tomcat's without defaultAutoCommit) lent the next borrower an implicit transaction nothing committed.
     */
    @Test
    void aWriteInItsOwnTransactionGivesItsConnectionBackWithAutoCommitOn() throws Exception {
        List<Boolean> autoCommitAtClose = new CopyOnWriteArrayList<>();
        DataSource target = TestDatabase.dataSource();
        DataSource recording = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{DataSource.class}, (self, method, args) -> {
                    Connection c = (Connection) invoke(method, target, args); // getConnection: nothing else is called
                    return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Connection.class},
                            (proxy, m, a) -> {
                                if (m.getName().equals("close")) {
                                    autoCommitAtClose.add(c.getAutoCommit());
                                }
                                return invoke(m, c, a);
                            });
                });
        int updated = Jdbc.written(recording, "a write", true, c -> Jdbc.update(c, "SET LOCAL lock_timeout = 1000"));
        assertEquals(0, updated);
        assertEquals(List.of(true), autoCommitAtClose);
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
