<?php
// A SabreDAV CardDAV server for the sync tests (Debian's php-sabre-dav 1.8), run by
// Tests/python/carddav_servers.py as `php -S 127.0.0.1:PORT server.php` with:
//   SABRE_DB    the SQLite file (made here, with the user alice and her book "default")
//   SABRE_AUTH  basic or digest (the PDO backend: Digest with MD5 and qop=auth, as Baikal)
// SabreDAV 1.8 has no sync plugin (no sync-collection): a client lists the book with PROPFIND.
// It validates every card it is sent with its vCard parser and answers 415 to one it cannot read.

//   SABRE_LOG   a file each request is logged to: method, path, the Authorization scheme, status
//   SABRE_BOOKS more books of alice's beside "default", by URI, comma-separated (made with the file)
//   SABRE_READONLY a file naming, one a line, the books alice may only read: their ACL (RFC 3744)
//               grants her {DAV:}read alone, so current-user-privilege-set has no write and the ACL
//               plugin refuses writes (403). Read at each request, so a test can change it.
date_default_timezone_set('UTC');
if (getenv('SABRE_LOG')) {
    register_shutdown_function(function () {
        $auth = explode(' ', $_SERVER['HTTP_AUTHORIZATION'] ?? '-')[0];
        file_put_contents(getenv('SABRE_LOG'), sprintf("%s %s %s %d\n", $_SERVER['REQUEST_METHOD'],
            $_SERVER['REQUEST_URI'], $auth, http_response_code()), FILE_APPEND | LOCK_EX);
    });
}
require_once 'Sabre/autoload.php';

$user = 'alice';
$password = 'secret';
$realm = 'SabreDAV';

$pdo = new PDO('sqlite:' . getenv('SABRE_DB'));
$pdo->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_EXCEPTION);
$pdo->exec('PRAGMA busy_timeout = 10000');
// The schema of the package's examples/sql/sqlite.*.sql (principals, users, address books).
if (!$pdo->query("SELECT name FROM sqlite_master WHERE name = 'cards'")->fetch()) {
    $pdo->exec('BEGIN');
    $pdo->exec('CREATE TABLE principals (id INTEGER PRIMARY KEY ASC, uri TEXT, email TEXT, displayname TEXT,
                vcardurl TEXT, UNIQUE(uri))');
    $pdo->exec('CREATE TABLE groupmembers (id INTEGER PRIMARY KEY ASC, principal_id INTEGER, member_id INTEGER,
                UNIQUE(principal_id, member_id))');
    $pdo->exec('CREATE TABLE users (id integer primary key asc, username TEXT, digesta1 TEXT, UNIQUE(username))');
    $pdo->exec('CREATE TABLE addressbooks (id integer primary key asc, principaluri text, displayname text,
                uri text, description text, ctag integer)');
    $pdo->exec('CREATE TABLE cards (id integer primary key asc, addressbookid integer, carddata blob, uri text,
                lastmodified integer)');
    $pdo->prepare('INSERT INTO principals (uri, email, displayname) VALUES (?, ?, ?)')
        ->execute(["principals/$user", "$user@example.org", 'Alice']);
    $pdo->prepare('INSERT INTO users (username, digesta1) VALUES (?, ?)')
        ->execute([$user, md5("$user:$realm:$password")]);
    $pdo->prepare('INSERT INTO addressbooks (principaluri, displayname, uri, description, ctag) VALUES (?, ?, ?, ?, 1)')
        ->execute(["principals/$user", 'Contacts', 'default', '']);
    foreach (array_filter(explode(',', getenv('SABRE_BOOKS') ?: '')) as $uri) {
        $pdo->prepare('INSERT INTO addressbooks (principaluri, displayname, uri, description, ctag) VALUES (?, ?, ?, ?, 1)')
            ->execute(["principals/$user", ucfirst($uri), $uri, '']);
    }
    $pdo->exec('COMMIT');
}

function exception_error_handler($errno, $errstr, $errfile, $errline) {
    // PHP 8 deprecations in a 2013 library are not errors of the request.
    if ($errno & (E_DEPRECATED | E_USER_DEPRECATED)) return true;
    throw new ErrorException($errstr, 0, $errno, $errfile, $errline);
}
set_error_handler('exception_error_handler');

/// Basic against the one test user (1.8's own PDO backend does Digest only).
class TestBasicAuth extends Sabre\DAV\Auth\Backend\AbstractBasic {
    protected function validateUserPass($username, $password) {
        return $username === 'alice' && $password === 'secret';
    }
}

/// A book alice may read and not write: its ACL grants read alone (its cards' own ACL is not
/// consulted for a new card, whose bind the ACL plugin checks on the book).
class ReadOnlyAddressBook extends Sabre\CardDAV\AddressBook {
    public function getACL() {
        return array(array('privilege' => '{DAV:}read', 'principal' => $this->addressBookInfo['principaluri'],
                           'protected' => true));
    }
}

class TestUserAddressBooks extends Sabre\CardDAV\UserAddressBooks {
    public function getChildren() {
        $file = getenv('SABRE_READONLY');
        $readOnly = $file && file_exists($file) ? array_filter(array_map('trim', file($file))) : array();
        $books = array();
        foreach ($this->carddavBackend->getAddressbooksForUser($this->principalUri) as $info) {
            $books[] = in_array($info['uri'], $readOnly, true) ? new ReadOnlyAddressBook($this->carddavBackend, $info)
                : new Sabre\CardDAV\AddressBook($this->carddavBackend, $info);
        }
        return $books;
    }
}

class TestAddressBookRoot extends Sabre\CardDAV\AddressBookRoot {
    public function getChildForPrincipal(array $principal) {
        return new TestUserAddressBooks($this->carddavBackend, $principal['uri']);
    }
}

$authBackend = getenv('SABRE_AUTH') === 'digest' ? new Sabre\DAV\Auth\Backend\PDO($pdo) : new TestBasicAuth();
$principalBackend = new Sabre\DAVACL\PrincipalBackend\PDO($pdo);
$carddavBackend = new Sabre\CardDAV\Backend\PDO($pdo);

$server = new Sabre\DAV\Server([
    new Sabre\DAVACL\PrincipalCollection($principalBackend),
    new TestAddressBookRoot($principalBackend, $carddavBackend),
]);
$server->setBaseUri('/');
$server->addPlugin(new Sabre\DAV\Auth\Plugin($authBackend, $realm));
$server->addPlugin(new Sabre\CardDAV\Plugin());
$server->addPlugin(new Sabre\DAVACL\Plugin());
$server->exec();
