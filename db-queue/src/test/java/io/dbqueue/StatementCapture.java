package io.dbqueue;

import javax.sql.DataSource;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;

/** A data source that records the text of every statement the library prepares or executes through it. */
final class StatementCapture {

    private static final Set<String> SENDING = Set.of("prepareStatement", "prepareCall", "execute", "executeQuery",
            "executeUpdate", "executeLargeUpdate", "addBatch");

    private final Set<String> statements = new ConcurrentSkipListSet<>();
    private final DataSource dataSource;

    StatementCapture(DataSource target) {
        this.dataSource = proxy(DataSource.class, target);
    }

    DataSource dataSource() {
        return dataSource;
    }

    Set<String> statements() {
        return Set.copyOf(statements);
    }

    @SuppressWarnings("unchecked")
    private <T> T proxy(Class<T> type, T target) {
        InvocationHandler handler = (self, method, args) -> {
            if (SENDING.contains(method.getName()) && args != null && args.length > 0 && args[0] instanceof String sql) {
                statements.add(sql.strip().replaceAll("\\s+", " "));
            }
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (result instanceof Connection c && method.getReturnType() == Connection.class) {
                return proxy(Connection.class, c);
            }
            if (result instanceof Statement s && Statement.class.isAssignableFrom(method.getReturnType())) {
                return proxy((Class<Statement>) method.getReturnType(), s);
            }
            return result;
        };
        return (T) Proxy.newProxyInstance(StatementCapture.class.getClassLoader(), new Class<?>[]{type}, handler);
    }
}
